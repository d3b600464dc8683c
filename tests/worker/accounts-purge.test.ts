import { bullPrefix, jobs } from '@locus/contract';
import { parseWorkerConfig, startWorkers } from '@locus/worker';
import { Queue, QueueEvents } from 'bullmq';
import { Redis } from 'ioredis';
import { sql } from 'kysely';
import { randomBytes } from 'node:crypto';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testRedisPrefix } from '../support/api';
import { freshDatabase, type TestDatabase } from '../support/database';
import { testEnvironment } from '../support/environment';

let database: TestDatabase;
let connection: Redis;
let workers: Awaited<ReturnType<typeof startWorkers>>;
let queue: Queue;
let events: QueueEvents;

beforeAll(async () => {
  database = await freshDatabase();
  const prefix = testRedisPrefix();
  connection = new Redis(testEnvironment.redisUrl(), { maxRetriesPerRequest: null });
  workers = await startWorkers(
    parseWorkerConfig({
      DATABASE_URL: database.url,
      REDIS_URL: testEnvironment.redisUrl(),
      REDIS_KEY_PREFIX: prefix,
      LOG_LEVEL: 'silent',
    }),
    { db: database.db, connection, log: pino({ level: 'silent' }) },
  );
  queue = new Queue(jobs.accountsPurge.queue, { connection, prefix: bullPrefix(prefix) });
  events = new QueueEvents(jobs.accountsPurge.queue, {
    connection: connection.duplicate(),
    prefix: bullPrefix(prefix),
  });
  await events.waitUntilReady();
});

afterAll(async () => {
  await events?.close();
  await queue?.close();
  await workers?.close();
  await connection?.quit();
  await database?.drop();
});

async function user(email: string, confirmed: boolean, ageHours: number): Promise<string> {
  const row = await database.db
    .insertInto('users')
    .values({
      first_name: 'A',
      last_name: 'B',
      email,
      password_hash: 'x',
      email_confirmed_at: confirmed ? new Date() : null,
      created_at: sql<Date>`now() - make_interval(hours => ${ageHours})`,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

describe('the accounts purge', () => {
  it('deletes day-old duplicates of confirmed addresses and month-dead sessions, nothing else', async () => {
    const owner = await user('owner@agency.test', true, 100);
    const oldDuplicate = await user('Owner@Agency.test', false, 48);
    const newDuplicate = await user('owner@agency.test', false, 1);
    const waiting = await user('waiting@agency.test', false, 48);

    const session = (expiresDaysAgo: number) => ({
      token_hash: randomBytes(32),
      user_id: owner,
      stay_signed_in: true,
      expires_at: sql<Date>`now() - make_interval(days => ${expiresDaysAgo})`,
    });
    await database.db
      .insertInto('auth_sessions')
      .values([session(40), session(5)])
      .execute();

    const job = await queue.add(jobs.accountsPurge.name, {}, jobs.accountsPurge.options);
    // Checked on the rows: the hourly schedule could run the purge first.
    await job.waitUntilFinished(events, 20_000);

    const left = await database.db.selectFrom('users').select('id').execute();
    expect(left.map((row) => row.id).sort()).toEqual([owner, newDuplicate, waiting].sort());
    expect(left.map((row) => row.id)).not.toContain(oldDuplicate);
    expect(await database.db.selectFrom('auth_sessions').select('user_id').execute()).toHaveLength(
      1,
    );
  });

  it('is scheduled', async () => {
    const schedulers = await queue.getJobSchedulers();
    expect(schedulers.map((scheduler) => scheduler.name)).toContain(jobs.accountsPurge.name);
  });
});
