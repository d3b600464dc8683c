import type { Database, DB } from '@locus/db';
import type { Transaction } from 'kysely';
import { advanceSessionIn } from '../location/lifecycle';
import type { RealtimeContext } from '../realtime/context';
import { publishSessionEvent } from '../realtime/session-publisher';
import { recordSessionFact } from '../webhooks/outbox';
import { lockUnreportedSms, markSmsReported, unreportedSmsIds, type UnreportedSms } from './repo';

interface ReporterDeps {
  db: Database;
  realtime: RealtimeContext;
  log: { error(details: object, message: string): void };
}

/**
 * How often each API instance looks for outcomes nobody told yet: a send the worker finished
 * after the instance that took the request stopped waiting (or died), or a delivery report.
 */
export const smsReportEveryMs = 1_000;

/**
 * Tells each session what became of its texts (issue 18: an outcome must reach the dispatcher
 * whichever instance is up). The row is the record: the worker stores the outcome, Twilio's
 * report moves the status on, and whichever API instance locks the row first tells the session
 * (`sms-status`), the team's webhooks (`sms.status`) and, for a text that never went out, the
 * session's machine (TEXT_FAILED: SPEC.md §8 "Unable to send SMS request for location").
 */
export async function reportSmsOutcomes(deps: ReporterDeps, smsId: string): Promise<boolean> {
  // What Postgres records is committed first; the session's socket hears of it afterwards, so
  // that no row or session lock is held while Redis answers (or does not, in an outage).
  const told = await deps.db.transaction().execute(async (trx) => {
    const row = await lockUnreportedSms(trx, smsId);
    if (!row) return undefined;
    const status = await record(trx, row);
    await markSmsReported(trx, row.id, row.status);
    return { row, status };
  });
  if (!told) return false;
  const { row, status } = told;
  if (!row.callerId) return true;
  try {
    await publishSessionEvent(
      deps.realtime,
      { sessionId: row.sessionId, callerId: row.callerId },
      'sms-status',
      { status },
    );
  } catch (error) {
    // Not told after all: the next look (a second away) tells it again. The webhook fact has
    // its own key and the machine takes TEXT_FAILED once, so only the event is repeated.
    await markSmsReported(deps.db, row.id, row.reportedStatus);
    throw error;
  }
  return true;
}

/** The webhook fact and, for a text that never went out, the failed request; the status to show. */
async function record(
  trx: Transaction<DB>,
  row: UnreportedSms,
): Promise<'sent' | 'delivered' | 'failed' | 'undelivered'> {
  await recordSessionFact(trx, row.sessionId, {
    event: 'sms.status',
    key: `${row.id}:${row.status}`,
    data: { callerId: row.callerId, smsId: row.id, status: row.status },
  });
  const failed = row.status === 'failed' || row.status === 'undelivered';
  // A text the provider never took did not go out: the request failed. One that went out and
  // then was not delivered is news about delivery, shown as such.
  if (failed && !row.wentOut) {
    await advanceSessionIn(trx, row.sessionId, {
      type: 'TEXT_FAILED',
      code: row.error === 'opted-out' ? 'sms-opted-out' : 'sms-failed',
      at: Date.now(),
    });
    return 'failed';
  }
  return row.status === 'delivered' || row.status === 'undelivered' || row.status === 'failed'
    ? row.status
    : 'sent';
}

/**
 * Every instance reports what is left to report, once a second; returns the stop. Each text in
 * its own transaction, so that one that cannot be told (a bug, logged every time) never holds
 * back the others.
 */
export function startSmsOutcomeReporter(deps: ReporterDeps): () => Promise<void> {
  let running: Promise<void> | undefined;
  const reportAll = async () => {
    for (const smsId of await unreportedSmsIds(deps.db)) {
      await reportSmsOutcomes(deps, smsId).catch((error: unknown) =>
        deps.log.error({ err: error, smsId }, 'could not report a text’s outcome'),
      );
    }
  };
  const timer = setInterval(() => {
    // One look at a time: while Redis or Postgres hangs, ticks are skipped, not queued.
    if (running) return;
    running = reportAll()
      .catch((error: unknown) => deps.log.error({ err: error }, 'could not report text outcomes'))
      .finally(() => (running = undefined));
  }, smsReportEveryMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    // A look stuck on an outage must not hold the shutdown: what it had not told, another
    // instance tells.
    await Promise.race([running, new Promise((resolve) => setTimeout(resolve, 2_000).unref())]);
  };
}
