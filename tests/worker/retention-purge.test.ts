import { openSession } from '@locus/api';
import { bullPrefix, jobs } from '@locus/contract';
import { parseWorkerConfig, startWorkers } from '@locus/worker';
import { Queue, QueueEvents } from 'bullmq';
import { Redis } from 'ioredis';
import { sql } from 'kysely';
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
  const config = parseWorkerConfig({
    DATABASE_URL: database.url,
    REDIS_URL: testEnvironment.redisUrl(),
    REDIS_KEY_PREFIX: prefix,
    LOG_LEVEL: 'silent',
  });
  connection = new Redis(testEnvironment.redisUrl(), { maxRetriesPerRequest: null });
  workers = await startWorkers(config, {
    db: database.db,
    connection,
    log: pino({ level: 'silent' }),
  });
  queue = new Queue(jobs.retentionPurge.queue, { connection, prefix: bullPrefix(prefix) });
  events = new QueueEvents(jobs.retentionPurge.queue, {
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

async function sessionWithHistory(endedDaysAgo: number | null): Promise<string> {
  const session = await openSession(database.db, { callers: [{ phoneNumber: '+12025550110' }] });
  const callerId = session.callers[0]!.callerId;
  await database.db
    .insertInto('location_fixes')
    .values({
      session_id: session.sessionId,
      seq: 1,
      caller_id: callerId,
      latitude: 1,
      longitude: 2,
      uncertainty_radius_m: 3,
      source: 'TEXT_MESSAGE',
      captured_at: new Date(),
      received_at: new Date(),
    })
    .execute();
  if (endedDaysAgo !== null) {
    await database.db
      .updateTable('tracking_sessions')
      .set({ status: 'ended', ended_at: sql<Date>`now() - make_interval(days => ${endedDaysAgo})` })
      .where('id', '=', session.sessionId)
      .execute();
  }
  return session.sessionId;
}

describe('the retention purge job', () => {
  it('deletes the history of sessions ended before the retention period, and nothing else', async () => {
    const old = await sessionWithHistory(120);
    const recent = await sessionWithHistory(10);
    const active = await sessionWithHistory(null);

    const job = await queue.add(
      jobs.retentionPurge.name,
      { olderThanDays: 90 },
      jobs.retentionPurge.options,
    );
    expect(await job.waitUntilFinished(events, 20_000)).toEqual({ deleted: 1 });

    const remaining = await database.db.selectFrom('location_fixes').select('session_id').execute();
    expect(remaining.map((row) => row.session_id).sort()).toEqual([recent, active].sort());
    expect(remaining.map((row) => row.session_id)).not.toContain(old);
  });

  it('fails a job whose payload does not match the contract, without running it', async () => {
    const job = await queue.add(jobs.retentionPurge.name, { olderThanDays: -1 }, { attempts: 1 });
    await expect(job.waitUntilFinished(events, 20_000)).rejects.toThrow(
      /olderThanDays|Number must be greater/,
    );
  });

  it('is scheduled daily', async () => {
    const schedulers = await queue.getJobSchedulers();
    expect(schedulers.map((scheduler) => scheduler.name)).toContain(jobs.retentionPurge.name);
  });
});
