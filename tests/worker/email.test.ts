import { bullPrefix, jobs } from '@locus/contract';
import { seedDemo } from '@locus/db';
import { parseWorkerConfig, startWorkers } from '@locus/worker';
import { Queue, QueueEvents } from 'bullmq';
import { Redis } from 'ioredis';
import { sql } from 'kysely';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, testRedisPrefix } from '../support/api';
import { freshDatabase, type TestDatabase } from '../support/database';
import { testEnvironment } from '../support/environment';

interface Received {
  from: string;
  to: string[];
  raw: string;
}

let database: TestDatabase;
let connection: Redis;
let workers: Awaited<ReturnType<typeof startWorkers>>;
let queue: Queue;
let events: QueueEvents;
let smtp: SMTPServer;
let smtpUrl: string;
let prefix: string;
const received: Received[] = [];

beforeAll(async () => {
  database = await freshDatabase();
  // A real SMTP server in-process: the nodemailer adapter speaks the real protocol to it.
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (address.address.startsWith('bounce@')) {
        callback(Object.assign(new Error('No such mailbox'), { responseCode: 550 }));
        return;
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  smtpUrl = `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`;

  prefix = testRedisPrefix();
  connection = new Redis(testEnvironment.redisUrl(), { maxRetriesPerRequest: null });
  workers = await startWorkers(
    parseWorkerConfig({
      DATABASE_URL: database.url,
      REDIS_URL: testEnvironment.redisUrl(),
      REDIS_KEY_PREFIX: prefix,
      LOG_LEVEL: 'silent',
      EMAIL_PROVIDER: 'smtp',
      SMTP_URL: smtpUrl,
      EMAIL_FROM: 'Locus <no-reply@locus.test>',
      EMAIL_SWEEP_AFTER_SECONDS: '60',
      EMAIL_GIVE_UP_HOURS: '24',
    }),
    { db: database.db, connection, log: pino({ level: 'silent' }) },
  );
  queue = new Queue(jobs.emailSend.queue, { connection, prefix: bullPrefix(prefix) });
  events = new QueueEvents(jobs.emailSend.queue, {
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
  await new Promise<void>((resolve) => (smtp ? smtp.close(() => resolve()) : resolve()));
  await database?.drop();
});

/** Quoted-printable, as nodemailer encodes long lines and `=`. */
function decode(raw: string): string {
  return raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

async function emailRow(values: { to: string; status?: string; ageSeconds?: number }) {
  const row = await database.db
    .insertInto('emails')
    .values({
      to_address: values.to,
      subject: 'Test message',
      text: `Hello,\n\nopen https://locus.example.org/x?code=abc\n\nthanks ${values.to}`,
      template: 'confirm-email',
      status: values.status ?? 'queued',
      created_at: sql<Date>`now() - make_interval(secs => ${values.ageSeconds ?? 0})`,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

const sendJob = (emailId: string) =>
  queue.add(jobs.emailSend.name, { emailId }, { ...jobs.emailSend.options, jobId: emailId });

const rowOf = (id: string) =>
  database.db.selectFrom('emails').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

async function waitForStatus(id: string, status: string) {
  for (;;) {
    const row = await rowOf(id);
    if (row.status === status) return row;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('email.send through SMTP', () => {
  it('delivers the row to the mail server and marks it sent', async () => {
    const id = await emailRow({ to: 'ann@county.test' });
    const job = await sendJob(id);
    expect(await job.waitUntilFinished(events, 20_000)).toEqual({ sent: true, provider: 'smtp' });

    const message = received.find((mail) => mail.to.includes('ann@county.test'))!;
    expect(message.from).toBe('no-reply@locus.test');
    expect(message.raw).toMatch(/^Subject: Test message$/m);
    expect(message.raw).toMatch(/^From: Locus <no-reply@locus\.test>$/m);
    expect(decode(message.raw)).toContain('https://locus.example.org/x?code=abc');

    const row = await rowOf(id);
    expect(row).toMatchObject({ status: 'sent', provider: 'smtp', attempts: 1, last_error: null });
    expect(row.sent_at).not.toBeNull();
  });

  it('sends a row once, even when its job runs again', async () => {
    const id = await emailRow({ to: 'once@county.test' });
    await (await sendJob(id)).waitUntilFinished(events, 20_000);
    // A second job for the same row (a sweeper racing a slow worker, say).
    const again = await queue.add(jobs.emailSend.name, { emailId: id }, { attempts: 1 });
    expect(await again.waitUntilFinished(events, 20_000)).toEqual({
      sent: false,
      skipped: 'sent',
    });
    expect(received.filter((mail) => mail.to.includes('once@county.test'))).toHaveLength(1);
  });

  it('fails a refused address for good, without retrying', async () => {
    const id = await emailRow({ to: 'bounce@county.test' });
    const job = await sendJob(id);
    await expect(job.waitUntilFinished(events, 20_000)).rejects.toThrow(/No such mailbox/);
    const row = await waitForStatus(id, 'failed');
    expect(row.attempts).toBe(1);
    expect(row.last_error).toMatch(/550|No such mailbox/);
    expect((await queue.getJob(id))?.attemptsMade).toBe(1);
  });
});

describe('the e-mail sweeper', () => {
  it('re-enqueues rows stuck in the queue, and gives up on very old ones', async () => {
    const stuck = await emailRow({ to: 'stuck@county.test', ageSeconds: 120 });
    const fresh = await emailRow({ to: 'fresh@county.test', ageSeconds: 0 });
    const ancient = await emailRow({ to: 'ancient@county.test', ageSeconds: 25 * 3600 });
    const sweep = await queue.add(jobs.emailSweep.name, {}, jobs.emailSweep.options);
    await sweep.waitUntilFinished(events, 20_000);
    // (The scheduled sweep may have got there first, so the outcome is checked on the rows.)
    expect((await waitForStatus(stuck, 'sent')).provider).toBe('smtp');
    expect((await rowOf(fresh)).status).toBe('queued');
    expect(await rowOf(ancient)).toMatchObject({
      status: 'failed',
      last_error: expect.stringMatching(/gave up/),
    });
  });

  it('is scheduled every minute', async () => {
    const schedulers = await queue.getJobSchedulers();
    expect(schedulers).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: jobs.emailSweep.name, every: 60000 }),
      ]),
    );
  });
});

describe('an e-mail the API writes', () => {
  it('reaches the mail server through the worker', async () => {
    await seedDemo(database.db, 'development');
    const api = await startApi({
      databaseUrl: database.url,
      redisPrefix: prefix,
      env: { EMAIL_PROVIDER: 'smtp', PUBLIC_URL: 'https://locus.example.org' },
    });
    try {
      const answer = await fetch(`${api.url}/api/v1/auth/forgot-password`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'dispatcher@demo-county.test' }),
      });
      expect(answer.status).toBe(202);
      // Forgot-password answers before it writes the e-mail (issue 17: same time for any address).
      let row: { id: string } | undefined;
      while (!row) {
        row = await database.db
          .selectFrom('emails')
          .select('id')
          .where('to_address', '=', 'dispatcher@demo-county.test')
          .executeTakeFirst();
        if (!row) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await waitForStatus(row.id, 'sent');
      const message = received.find((mail) => mail.to.includes('dispatcher@demo-county.test'))!;
      expect(message.raw).toMatch(/^Subject: Reset your Locus password$/m);
      expect(decode(message.raw)).toMatch(
        /https:\/\/locus\.example\.org\/auth\/forgot-password\/reset\?reset-code=[A-Za-z0-9_-]{43}/,
      );
    } finally {
      await api.close();
    }
  });
});
