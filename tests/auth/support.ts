import { DEMO_PASSWORD, seedDemo } from '@locus/db';
import { parseWorkerConfig, startWorkers } from '@locus/worker';
import { Redis } from 'ioredis';
import { createHash } from 'node:crypto';
import { pino } from 'pino';
import { startApi, testRedisPrefix, type TestApi } from '../support/api';
import { freshDatabase, type TestDatabase } from '../support/database';
import { testEnvironment } from '../support/environment';

export { DEMO_PASSWORD };

/** A seeded database, an API instance and a worker (so that e-mails and texts reach the outbox). */
export interface AuthStack {
  database: TestDatabase;
  api: TestApi;
  redisPrefix: string;
  close(): Promise<void>;
}

export async function startAuthStack(
  options: {
    env?: Record<string, string>;
    worker?: boolean;
    workerEnv?: Record<string, string>;
  } = {},
): Promise<AuthStack> {
  const database = await freshDatabase();
  await seedDemo(database.db, 'development');
  const redisPrefix = testRedisPrefix();
  const api = await startApi({
    databaseUrl: database.url,
    redisPrefix,
    // Each test file talks from 127.0.0.1 many times; the limits have their own test.
    env: { AUTH_RATE_LIMIT_MAX: '10000', ...options.env },
  });
  let stopWorker = async () => undefined as void;
  if (options.worker !== false) {
    const connection = new Redis(testEnvironment.redisUrl(), { maxRetriesPerRequest: null });
    const workers = await startWorkers(
      parseWorkerConfig({
        DATABASE_URL: database.url,
        REDIS_URL: testEnvironment.redisUrl(),
        REDIS_KEY_PREFIX: redisPrefix,
        LOG_LEVEL: 'silent',
        ...options.workerEnv,
      }),
      { db: database.db, connection, log: pino({ level: 'silent' }) },
    );
    stopWorker = async () => {
      await workers.close();
      await connection.quit();
    };
  }
  return {
    database,
    api,
    redisPrefix,
    close: async () => {
      await stopWorker();
      await api.close();
      await database.drop();
    },
  };
}

export interface Answer<T = unknown> {
  status: number;
  body: T;
  headers: Headers;
}

/** One JSON request to the API; `token` goes in the bearer header. */
export async function call<T = Record<string, unknown>>(
  api: TestApi,
  method: string,
  path: string,
  options: { body?: unknown; token?: string; headers?: Record<string, string> } = {},
): Promise<Answer<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  const response = await fetch(`${api.url}${path}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await response.text();
  return {
    status: response.status,
    body: (text ? JSON.parse(text) : undefined) as T,
    headers: response.headers,
  };
}

export async function signIn(
  api: TestApi,
  email: string,
  password = DEMO_PASSWORD,
  staySignedIn = true,
): Promise<string> {
  const answer = await call<{ token: string }>(api, 'POST', '/api/v1/auth/sign-in', {
    body: { email, password, staySignedIn },
  });
  if (answer.status !== 200) throw new Error(`sign-in as ${email} answered ${answer.status}`);
  return answer.body.token;
}

export interface OutboxEmail {
  to: string;
  subject: string;
  text: string;
  createdAt: string;
}

/** The dev outbox's e-mails to an address, newest first. */
export async function outbox(api: TestApi, to: string): Promise<OutboxEmail[]> {
  const answer = await call<OutboxEmail[]>(
    api,
    'GET',
    `/api/v1/dev/outbox/email?to=${encodeURIComponent(to)}`,
  );
  if (answer.status !== 200) throw new Error(`dev outbox answered ${answer.status}`);
  return answer.body;
}

/**
 * Waits until the worker has delivered `count` e-mails to the address into the outbox. Bounded
 * by the test's timeout; polls because delivery happens in another component.
 */
export async function waitForEmails(api: TestApi, to: string, count = 1): Promise<OutboxEmail[]> {
  for (;;) {
    const emails = await outbox(api, to);
    if (emails.length >= count) return emails;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The value of a query parameter of the first link in the text that carries it. */
export function codeIn(email: OutboxEmail, parameter: string): { code: string; link: URL } {
  const match = new RegExp(`https?://\\S+[?&]${parameter}=[A-Za-z0-9_-]+`).exec(email.text);
  if (!match) throw new Error(`no ${parameter} link in: ${email.text}`);
  const link = new URL(match[0]);
  return { code: link.searchParams.get(parameter)!, link };
}

export function uniqueEmail(name: string, domain = 'agency.test'): string {
  return `${name}-${Math.random().toString(36).slice(2, 10)}@${domain}`;
}

export function registration(email: string, overrides: Record<string, unknown> = {}) {
  return {
    firstName: 'Riley',
    lastName: 'Responder',
    email,
    password: 'correct horse battery',
    agreedToTermsOfService: true,
    ...overrides,
  };
}

/**
 * When the account's sign-in lock lifts (ms since the epoch, as Redis holds it), or null when it
 * is not locked. The key is the lockout's own (`SignInLockout`).
 */
export async function lockLiftsAt(stack: AuthStack, email: string): Promise<number | null> {
  const id = createHash('sha256').update(email.toLowerCase()).digest('hex');
  const at = await stack.api.app.locus.redis.pexpiretime(
    `${stack.redisPrefix}sign-in:{${id}}:locked`,
  );
  return at > 0 ? at : null;
}

/** The newest audit row's id: the rows after it are the calling test's own. */
export async function lastAuditId(stack: AuthStack): Promise<string> {
  const row = await stack.database.db
    .selectFrom('audit_log')
    .select((eb) => eb.fn.max('id').as('id'))
    .executeTakeFirstOrThrow();
  return String(row.id ?? '0');
}

/** The audit rows about these subjects (addresses, user ids) written after `afterId`, in order. */
export function auditRowsSince(stack: AuthStack, afterId: string, subjects: string[]) {
  return stack.database.db
    .selectFrom('audit_log')
    .select(['action', 'actor_user_id', 'subject', 'team_id', 'ip', 'detail'])
    .where('id', '>', afterId)
    .where('subject', 'in', subjects)
    .orderBy('id')
    .execute();
}
