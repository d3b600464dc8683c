import { describe, expect, it } from 'vitest';
import { parseConfig } from './config';

const minimal = {
  DATABASE_URL: 'postgres://u:p@localhost:5432/locus',
  REDIS_URL: 'redis://localhost:6379',
};

describe('parseConfig', () => {
  it('fills in the documented defaults', () => {
    const config = parseConfig(minimal);
    expect(config).toMatchObject({
      PORT: 3000,
      REDIS_KEY_PREFIX: 'locus:',
      QUEUE_BOARD_ENABLED: false,
      FIX_BATCH_MAX_ROWS: 500,
      FIX_BATCH_MAX_DELAY_MS: 100,
    });
  });

  it('names every bad or missing setting', () => {
    expect(() => parseConfig({ PORT: 'eighty', QUEUE_BOARD_ENABLED: 'maybe' })).toThrow(
      /DATABASE_URL[\s\S]*REDIS_URL|REDIS_URL[\s\S]*DATABASE_URL/,
    );
    expect(() => parseConfig({ ...minimal, PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => parseConfig({ ...minimal, QUEUE_BOARD_ENABLED: 'maybe' })).toThrow(
      /QUEUE_BOARD_ENABLED/,
    );
  });
});
