import { parseConfig } from '@locus/api';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, testRedisPrefix, type TestApi } from '../support/api';
import { freshDatabase, type TestDatabase } from '../support/database';
import { testEnvironment } from '../support/environment';
import { call } from './support';

const repoRoot = join(import.meta.dirname, '..', '..');
const minimal = { DATABASE_URL: 'postgres://u:p@localhost/locus', REDIS_URL: 'redis://localhost' };
const outboxPaths = ['/api/v1/dev/outbox/email', '/api/v1/dev/outbox/sms'];

let database: TestDatabase;

beforeAll(async () => {
  database = await freshDatabase();
});

afterAll(async () => {
  await database?.drop();
});

describe('the dev outbox setting', () => {
  it('is off unless DEV_OUTBOX=on, whatever NODE_ENV', () => {
    expect(parseConfig(minimal).DEV_OUTBOX).toBe('off');
    expect(parseConfig({ ...minimal, NODE_ENV: 'development' }).DEV_OUTBOX).toBe('off');
    expect(parseConfig({ ...minimal, DEV_OUTBOX: 'on' }).DEV_OUTBOX).toBe('on');
  });

  it('is refused with a real e-mail or SMS provider, or in production', () => {
    expect(() => parseConfig({ ...minimal, DEV_OUTBOX: 'on', EMAIL_PROVIDER: 'smtp' })).toThrow(
      /DEV_OUTBOX: must be off with a real e-mail or SMS provider/,
    );
    expect(() =>
      parseConfig({
        ...minimal,
        DEV_OUTBOX: 'on',
        SMS_PROVIDER: 'twilio',
        TWILIO_AUTH_TOKEN: 'token',
        PUBLIC_URL: 'https://locus.example.org',
      }),
    ).toThrow(/DEV_OUTBOX: must be off with a real e-mail or SMS provider/);
    expect(() => parseConfig({ ...minimal, DEV_OUTBOX: 'on', NODE_ENV: 'production' })).toThrow(
      /DEV_OUTBOX: must be off in production/,
    );
  });
});

describe('without DEV_OUTBOX=on', () => {
  let api: TestApi;

  beforeAll(async () => {
    // NODE_ENV=development, the default the probe found exposing every link.
    api = await startApi({
      databaseUrl: database.url,
      redisPrefix: testRedisPrefix(),
      env: { NODE_ENV: 'development', DEV_OUTBOX: 'off' },
    });
  });

  afterAll(async () => {
    await api?.close();
  });

  it('answers 404 to anonymous visitors, as if it did not exist', async () => {
    for (const path of outboxPaths) {
      const answer = await call(api, 'GET', path);
      expect(answer.status, path).toBe(404);
      expect(answer.body).toMatchObject({ error: 'not-found' });
    }
    const reply = await call(api, 'POST', '/api/v1/dev/outbox/sms/inbound', {
      body: { from: '+12025550100', body: 'STOP' },
    });
    expect(reply.status).toBe(404);
  });
});

describe('with DEV_OUTBOX=on', () => {
  let api: TestApi;

  beforeAll(async () => {
    api = await startApi({
      databaseUrl: database.url,
      redisPrefix: testRedisPrefix(),
      env: { DEV_OUTBOX: 'on' },
    });
  });

  afterAll(async () => {
    await api?.close();
  });

  it('lists what was sent, and the audit trail records who looked (once per address and window)', async () => {
    for (let read = 0; read < 3; read += 1) {
      for (const path of outboxPaths) expect((await call(api, 'GET', path)).status).toBe(200);
    }
    const audit = await database.db
      .selectFrom('audit_log')
      .select(['actor_user_id', 'subject', 'detail'])
      .where('action', '=', 'dev-outbox.read')
      .orderBy('id')
      .execute();
    expect(audit).toEqual([
      { actor_user_id: null, subject: '127.0.0.1', detail: { box: 'email', ip: '127.0.0.1' } },
      { actor_user_id: null, subject: '127.0.0.1', detail: { box: 'sms', ip: '127.0.0.1' } },
    ]);
  });
});

/** Starts the API as `npm start` does and collects what it prints until `until` matches or it exits. */
function bootOutput(env: Record<string, string>, until: RegExp) {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(repoRoot, 'services/api/src/main.ts')],
    {
      cwd: repoRoot,
      env: {
        ...process.env,
        HOST: '127.0.0.1',
        PORT: '0',
        DATABASE_URL: database.url,
        REDIS_URL: testEnvironment.redisUrl(),
        REDIS_KEY_PREFIX: testRedisPrefix(),
        LOG_LEVEL: 'info',
        WEB_DIST_DIR: '/nonexistent',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  return new Promise<{ output: string; exitCode: number | null }>((resolve) => {
    let output = '';
    const collect = (chunk: Buffer) => {
      output += chunk.toString();
      if (until.test(output) && child.exitCode === null) {
        child.once('exit', () => resolve({ output, exitCode: null }));
        child.kill('SIGTERM');
      }
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    child.once('exit', (code) => resolve({ output, exitCode: code }));
  });
}

describe('at boot', () => {
  it('warns when the outbox is on', { timeout: 90_000 }, async () => {
    const { output } = await bootOutput(
      { NODE_ENV: 'development', DEV_OUTBOX: 'on' },
      /Server listening/,
    );
    const warning = output
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { level: number; msg: string })
      .find((line) => line.msg.includes('DEV_OUTBOX=on'));
    expect(warning).toMatchObject({ level: 40, msg: expect.stringMatching(/anyone can read/) });
  });

  it(
    'refuses to start with the outbox on next to a real e-mail provider',
    { timeout: 90_000 },
    async () => {
      const { output, exitCode } = await bootOutput(
        { NODE_ENV: 'development', DEV_OUTBOX: 'on', EMAIL_PROVIDER: 'smtp' },
        /Server listening/,
      );
      expect(exitCode).toBe(1);
      expect(output).toMatch(/DEV_OUTBOX: must be off with a real e-mail or SMS provider/);
    },
  );
});
