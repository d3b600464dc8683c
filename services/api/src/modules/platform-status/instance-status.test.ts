import { statusThresholdDefaults, StatusThresholds, type InstanceHeartbeat } from '@locus/contract';
import { describe, expect, it } from 'vitest';
import { instanceStatus } from './collectors';

const thresholds = StatusThresholds.parse({});
const now = Date.parse('2026-11-25T10:00:00Z');
const beat = (at: string, stoppedAt?: string): InstanceHeartbeat => ({
  id: 'worker-1',
  role: 'worker',
  version: '1.0.0',
  hostname: 'host',
  pid: 42,
  startedAt: '2026-11-25T09:00:00Z',
  at,
  ...(stoppedAt ? { stoppedAt } : {}),
  eventLoopLagMs: 1,
  memoryRssBytes: 100_000_000,
  heapUsedBytes: 50_000_000,
});

describe('an instance card', () => {
  it('is green while it beats', () => {
    const card = instanceStatus(
      { heartbeat: beat('2026-11-25T09:59:58Z'), alive: true },
      thresholds,
      now,
      false,
    );
    expect(card).toMatchObject({ alive: true, level: 'green', notes: [], stoppedAt: null });
  });

  it('is amber when it stopped on purpose and another of its role carries on (a rolling deploy)', () => {
    const at = '2026-11-25T09:59:30Z';
    const card = instanceStatus({ heartbeat: beat(at, at), alive: false }, thresholds, now, true);
    expect(card).toMatchObject({ alive: false, level: 'amber', stoppedAt: at });
    expect(card.notes).toEqual(['Stopped cleanly 30 s ago (shut down on purpose).']);
  });

  it('is red when it stopped on purpose and none of its role is alive', () => {
    const at = '2026-11-25T09:59:30Z';
    const card = instanceStatus({ heartbeat: beat(at, at), alive: false }, thresholds, now, false);
    expect(card.level).toBe('red');
    expect(card.notes.join(' ')).toMatch(/no other worker process is alive/);
  });

  it('is red when it stopped beating without a word (a crash), whoever else is alive', () => {
    const card = instanceStatus(
      { heartbeat: beat('2026-11-25T09:59:30Z'), alive: false },
      thresholds,
      now,
      true,
    );
    expect(card).toMatchObject({ level: 'red', stoppedAt: null });
    expect(card.notes.join(' ')).toMatch(/Stopped beating/);
  });

  it('turns amber past the event-loop threshold', () => {
    const heartbeat = {
      ...beat('2026-11-25T09:59:58Z'),
      eventLoopLagMs: statusThresholdDefaults.eventLoopLagMs.amber,
    };
    expect(instanceStatus({ heartbeat, alive: true }, thresholds, now, false).level).toBe('amber');
  });
});
