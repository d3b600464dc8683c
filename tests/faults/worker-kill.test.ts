import { bullPrefix, jobs } from '@locus/contract';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeTwilio, type FakeMessage } from '../fakes/twilio-server';
import { testRedisPrefix } from '../support/api';
import { freshDatabase, type TestDatabase } from '../support/database';
import { testEnvironment } from '../support/environment';
import { report, startWorkerProcess, type WorkerProcess } from './processes';

const texts = 500;
const killAfter = 150;

let database: TestDatabase;
let fake: FakeTwilio;
let redis: Redis;
let queue: Queue;
const workers: WorkerProcess[] = [];
const redisPrefix = testRedisPrefix();

beforeAll(async () => {
  database = await freshDatabase();
  fake = await FakeTwilio.start();
  redis = new Redis(testEnvironment.redisUrl(), { maxRetriesPerRequest: null });
  queue = new Queue(jobs.smsSend.queue, {
    connection: redis,
    prefix: bullPrefix(redisPrefix),
  });
});

afterAll(async () => {
  await Promise.all(workers.map((worker) => worker.stop()));
  await queue?.close();
  await redis?.quit();
  await fake?.close();
  await database?.drop();
});

function worker(): WorkerProcess {
  const started = startWorkerProcess({
    DATABASE_URL: database.url,
    REDIS_URL: testEnvironment.redisUrl(),
    REDIS_KEY_PREFIX: redisPrefix,
    SMS_PROVIDER: 'twilio',
    TWILIO_ACCOUNT_SID: fake.accountSid,
    TWILIO_AUTH_TOKEN: fake.authToken,
    TWILIO_FROM: '+15005550006',
    TWILIO_API_BASE_URL: fake.url,
  });
  workers.push(started);
  return started;
}

describe('the worker killed with texts queued', () => {
  it('sends every text exactly once: those killed between Twilio’s accept and the commit are found at Twilio, not sent again', async () => {
    // 500 queued texts, as the API writes them: one row each, and an sms.send job by its id.
    const rows = await database.db
      .insertInto('sms_messages')
      .values(
        Array.from({ length: texts }, (_, index) => ({
          direction: 'outbound',
          phone_number: `+1202555${String(1000 + index).padStart(4, '0')}`,
          body: `Share your location: https://locus.test/l?token=fault${index}x${Date.now()}`,
          status: 'queued',
        })),
      )
      .returning('id')
      .execute();
    await queue.addBulk(
      rows.map((row) => ({
        name: jobs.smsSend.name,
        data: { smsId: row.id },
        opts: { ...jobs.smsSend.options, jobId: row.id },
      })),
    );

    // The first worker is killed the moment Twilio has accepted text 150, before Twilio's
    // answer reaches it: that text and the others in its hands are in the window.
    const first = worker();
    let killedAt = 0;
    const accepted = new Promise<FakeMessage>((resolve) => {
      fake.beforeAnswer = async (message) => {
        if (fake.messages.length !== killAfter) return;
        killedAt = Date.now();
        resolve(message);
        await first.kill();
      };
    });
    const inWindow = await accepted;
    await first.exited;
    fake.beforeAnswer = undefined;
    const sentBeforeRestart = fake.messages.length;

    worker();
    const unsent = async () =>
      (
        await sql<{ n: number }>`select count(*)::int as n from sms_messages
          where status <> 'sent'`.execute(database.db)
      ).rows[0]!.n;
    await expect.poll(unsent, { timeout: 90_000, interval: 500 }).toBe(0);
    const recoveredMs = Date.now() - killedAt;

    const perBody = new Map<string, number>();
    for (const message of fake.messages)
      perBody.set(message.body, (perBody.get(message.body) ?? 0) + 1);
    const duplicates = [...perBody.values()].filter((count) => count > 1).length;
    const stored = await database.db
      .selectFrom('sms_messages')
      .select(['provider_message_id'])
      .where('status', '=', 'sent')
      .execute();
    const figures = report('worker SIGKILL with 500 texts queued', {
      texts,
      acceptedBeforeKill: sentBeforeRestart,
      distinctTextsAtTwilio: perBody.size,
      duplicates,
      listLookups: fake.listCalls,
      allSentWithinMs: recoveredMs,
    });
    // Every text went out, once; the one killed mid-answer is stored with Twilio's own id.
    expect(figures.distinctTextsAtTwilio).toBe(texts);
    expect(figures.duplicates).toBe(0);
    // Within 10 s locks and 5 s stall checks of the kill (BullMQ's defaults took a minute).
    expect(figures.allSentWithinMs).toBeLessThanOrEqual(30_000);
    expect(new Set(stored.map((row) => row.provider_message_id)).size).toBe(texts);
    expect(stored.some((row) => row.provider_message_id === inWindow.sid)).toBe(true);
  }, 150_000);
});
