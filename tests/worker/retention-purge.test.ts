import { openSession } from '@locus/api';
import { bullPrefix, jobs } from '@locus/contract';
import { parseWorkerConfig, startWorkers } from '@locus/worker';
import { Queue, QueueEvents } from 'bullmq';
import { Redis } from 'ioredis';
import { sql } from 'kysely';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { purgeTeamHistory } from '../../services/worker/src/jobs/maintenance/retention-purge';
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
    expect(await job.waitUntilFinished(events, 20_000)).toEqual({
      teams: 1,
      sessions: 1,
      rows: 1,
      partnerRows: 0,
    });

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

// Issue 15: retention per team, legal holds, chat and consent receipts, and the audit row.
const historyTables = [
  'location_fixes',
  'session_events',
  'location_lookups',
  'sms_messages',
  'chat_messages',
  'consent_receipts',
] as const;
type HistoryTable = (typeof historyTables)[number];

async function newTeam(name: string, retentionDays: number | null): Promise<string> {
  const row = await database.db
    .insertInto('teams')
    .values({ team_name: name, retention_days: retentionDays })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/**
 * A session of the team with a row in every table the purge empties (two fixes, two chat
 * messages, one of each other), ended that many days ago (null: still running), held or not.
 */
async function sessionWithEverything(
  teamId: string | null,
  endedDaysAgo: number | null,
  { held = false } = {},
): Promise<string> {
  const phoneNumber = '+12025550111';
  const session = await openSession(database.db, {
    ...(teamId ? { teamId } : {}),
    callers: [{ phoneNumber }],
  });
  const sessionId = session.sessionId;
  const callerId = session.callers[0]!.callerId;
  const fix = (seq: number) => ({
    session_id: sessionId,
    seq,
    caller_id: callerId,
    latitude: 1,
    longitude: 2,
    uncertainty_radius_m: 3,
    source: 'TEXT_MESSAGE',
    captured_at: new Date(),
    received_at: new Date(),
  });
  await database.db
    .insertInto('location_fixes')
    .values([fix(1), fix(2)])
    .execute();
  await database.db
    .insertInto('session_events')
    .values({
      session_id: sessionId,
      seq: 3,
      caller_id: callerId,
      event: 'caller-connected',
      payload: JSON.stringify({ connected: true }),
      created_at: new Date(),
    })
    .execute();
  await database.db
    .insertInto('location_lookups')
    .values({ session_id: sessionId, caller_id: callerId, status: 'not-found' })
    .execute();
  await database.db
    .insertInto('sms_messages')
    .values({
      session_id: sessionId,
      caller_id: callerId,
      direction: 'outbound',
      phone_number: phoneNumber,
      body: 'Please share your location',
      language: 'en',
      status: 'sent',
    })
    .execute();
  const chat = (seq: number, sender: 'dispatcher' | 'caller') => ({
    session_id: sessionId,
    caller_id: callerId,
    seq,
    sender,
    body: `message ${seq}`,
    language: 'en',
    translation_status: 'none',
  });
  await database.db
    .insertInto('chat_messages')
    .values([chat(4, 'dispatcher'), chat(5, 'caller')])
    .execute();
  await database.db
    .insertInto('consent_receipts')
    .values({
      session_id: sessionId,
      caller_id: callerId,
      language: 'en',
      catalogue_version: 'test',
      agency_name: 'Test agency',
      shown_text: JSON.stringify({ consent: 'Share your location with the agency?' }),
      user_agent: 'Mozilla/5.0 (test)',
    })
    .execute();
  if (endedDaysAgo !== null) {
    await database.db
      .updateTable('tracking_sessions')
      .set({
        status: 'ended',
        ended_at: sql<Date>`now() - make_interval(days => ${endedDaysAgo})`,
        ...(held
          ? { legal_hold_at: sql<Date>`now()`, legal_hold_reason: 'Subpoena 2026-118' }
          : {}),
      })
      .where('id', '=', sessionId)
      .execute();
  }
  return sessionId;
}

const everything: Record<HistoryTable, number> = {
  location_fixes: 2,
  session_events: 1,
  location_lookups: 1,
  sms_messages: 1,
  chat_messages: 2,
  consent_receipts: 1,
};
const nothingLeft: Record<HistoryTable, number> = {
  location_fixes: 0,
  session_events: 0,
  location_lookups: 0,
  sms_messages: 0,
  chat_messages: 0,
  consent_receipts: 0,
};

async function historyOf(sessionId: string): Promise<Record<HistoryTable, number>> {
  const counts = { ...nothingLeft };
  for (const table of historyTables) {
    const { rows } = await sql<{ n: number }>`
      select count(*)::int as n from ${sql.table(table)} where session_id = ${sessionId}
    `.execute(database.db);
    counts[table] = rows[0]!.n;
  }
  return counts;
}

async function purgeRows(teamId: string) {
  return database.db
    .selectFrom('audit_log')
    .select(['actor_user_id', 'subject', 'team_id', 'ip', 'detail'])
    .where('action', '=', 'retention.purged')
    .where('team_id', '=', teamId)
    .orderBy('id')
    .execute();
}

async function runPurge(olderThanDays = 90): Promise<unknown> {
  const job = await queue.add(
    jobs.retentionPurge.name,
    { olderThanDays },
    jobs.retentionPurge.options,
  );
  return job.waitUntilFinished(events, 20_000);
}

/** The cut-off an audit row names, in days before now (rounded: the row was written just now). */
const daysAgo = (iso: unknown) =>
  Math.round((Date.now() - Date.parse(String(iso))) / (24 * 3600 * 1000));

describe('the retention purge per team, with legal holds (issue 15)', () => {
  it('purges past each team’s own cut-off, keeps held and recent sessions, and audits it once', async () => {
    const month = await newTeam('Thirty Day County', 30);
    const standard = await newTeam('Default County', null);
    const monthOld = await sessionWithEverything(month, 40);
    const monthHeld = await sessionWithEverything(month, 400, { held: true });
    const monthRecent = await sessionWithEverything(month, 20);
    const monthRunning = await sessionWithEverything(month, null);
    const standardMonthOld = await sessionWithEverything(standard, 40);
    const standardOld = await sessionWithEverything(standard, 100);

    expect(await runPurge(90)).toEqual({ teams: 2, sessions: 2, rows: 16, partnerRows: 0 });

    // The 30-day team loses its 40-day-old session's fixes, chat and the rest...
    expect(await historyOf(monthOld)).toEqual(nothingLeft);
    // ...but the session and its caller stay (the metrics read counts kept on them).
    const kept = await database.db
      .selectFrom('tracking_sessions')
      .select('id')
      .where('id', '=', monthOld)
      .executeTakeFirst();
    expect(kept?.id).toBe(monthOld);
    // A default (90-day) team keeps its 40-day-old session, and loses its 100-day-old one.
    expect(await historyOf(standardMonthOld)).toEqual(everything);
    expect(await historyOf(standardOld)).toEqual(nothingLeft);
    // Held far past the cut-off: everything kept. Recent and running sessions: untouched.
    expect(await historyOf(monthHeld)).toEqual(everything);
    expect(await historyOf(monthRecent)).toEqual(everything);
    expect(await historyOf(monthRunning)).toEqual(everything);

    const monthRows = await purgeRows(month);
    expect(monthRows).toHaveLength(1);
    expect(monthRows[0]).toMatchObject({
      actor_user_id: null,
      subject: month,
      team_id: month,
      ip: null,
    });
    expect(monthRows[0]!.detail).toEqual({
      cutoff: expect.any(String),
      retentionDays: 30,
      sessions: 1,
      fixes: 2,
      events: 1,
      chat: 2,
      texts: 1,
      lookups: 1,
      consentReceipts: 1,
      heldSessionsKept: 1,
    });
    expect(daysAgo((monthRows[0]!.detail as { cutoff: string }).cutoff)).toBe(30);
    const standardRows = await purgeRows(standard);
    expect(standardRows.map((row) => row.detail)).toEqual([
      {
        cutoff: expect.any(String),
        retentionDays: 90,
        sessions: 1,
        fixes: 2,
        events: 1,
        chat: 2,
        texts: 1,
        lookups: 1,
        consentReceipts: 1,
        heldSessionsKept: 0,
      },
    ]);
    expect(daysAgo((standardRows[0]!.detail as { cutoff: string }).cutoff)).toBe(90);

    // A second run finds nothing to delete and writes no empty audit row.
    const rowsBefore = await database.db
      .selectFrom('audit_log')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    expect(await runPurge(90)).toEqual({ teams: 0, sessions: 0, rows: 0, partnerRows: 0 });
    const rowsAfter = await database.db
      .selectFrom('audit_log')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    expect(rowsAfter.n).toBe(rowsBefore.n);
    expect(await historyOf(monthHeld)).toEqual(everything);
    expect(await historyOf(standardMonthOld)).toEqual(everything);

    // Once the hold is lifted, the next run deletes what it kept.
    await database.db
      .updateTable('tracking_sessions')
      .set({ legal_hold_at: null })
      .where('id', '=', monthHeld)
      .execute();
    expect(await runPurge(90)).toEqual({ teams: 1, sessions: 1, rows: 8, partnerRows: 0 });
    expect(await historyOf(monthHeld)).toEqual(nothingLeft);
    expect((await purgeRows(month)).map((row) => row.detail)).toMatchObject([
      { sessions: 1, heldSessionsKept: 1 },
      { sessions: 1, heldSessionsKept: 0 },
    ]);
  });

  it('works through a backlog in batches, each committed with its own audit row', async () => {
    const team = await newTeam('Backlog County', 7);
    const sessions = [
      await sessionWithEverything(team, 10),
      await sessionWithEverything(team, 11),
      await sessionWithEverything(team, 12),
    ];
    const cutoff = new Date(Date.now() - 7 * 24 * 3600 * 1000);

    const purged = await purgeTeamHistory(
      database.db,
      { teamId: team, retentionDays: 7, cutoff },
      2,
    );
    expect(purged).toMatchObject({ sessions: 3, fixes: 6, chat: 6, batches: 2 });
    for (const session of sessions) expect(await historyOf(session)).toEqual(nothingLeft);
    const rows = await purgeRows(team);
    expect(rows.map((row) => (row.detail as { sessions: number }).sessions)).toEqual([2, 1]);

    const again = await purgeTeamHistory(
      database.db,
      { teamId: team, retentionDays: 7, cutoff },
      2,
    );
    expect(again).toMatchObject({ sessions: 0, batches: 0 });
    expect(await purgeRows(team)).toHaveLength(2);
  });
});
