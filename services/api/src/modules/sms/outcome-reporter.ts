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
  return deps.db.transaction().execute(async (trx) => {
    const row = await lockUnreportedSms(trx, smsId);
    if (!row) return false;
    await tell(deps, trx, row);
    await markSmsReported(trx, row.id, row.status);
    return true;
  });
}

async function tell(deps: ReporterDeps, trx: Transaction<DB>, row: UnreportedSms): Promise<void> {
  await recordSessionFact(trx, row.sessionId, {
    event: 'sms.status',
    key: `${row.id}:${row.status}`,
    data: { callerId: row.callerId, smsId: row.id, status: row.status },
  });
  const failed = row.status === 'failed' || row.status === 'undelivered';
  // A text the session never heard was sent did not go out: the request failed. One that was
  // sent and then not delivered is news about delivery, shown as such.
  const neverSent = failed && row.reportedStatus === null;
  if (neverSent)
    await advanceSessionIn(trx, row.sessionId, {
      type: 'TEXT_FAILED',
      code: row.error === 'opted-out' ? 'sms-opted-out' : 'sms-failed',
      at: Date.now(),
    });
  if (!row.callerId) return;
  const status = neverSent ? 'failed' : row.status;
  if (
    status === 'sent' ||
    status === 'delivered' ||
    status === 'failed' ||
    status === 'undelivered'
  )
    await publishSessionEvent(
      deps.realtime,
      { sessionId: row.sessionId, callerId: row.callerId },
      'sms-status',
      { status },
    );
}

/**
 * Every instance reports what is left to report, once a second; returns the stop. Each text in
 * its own transaction, so that one that cannot be told (a bug, logged every time) never holds
 * back the others.
 */
export function startSmsOutcomeReporter(deps: ReporterDeps): () => Promise<void> {
  const reportAll = async () => {
    for (const smsId of await unreportedSmsIds(deps.db)) {
      await reportSmsOutcomes(deps, smsId).catch((error: unknown) =>
        deps.log.error({ err: error, smsId }, 'could not report a text’s outcome'),
      );
    }
  };
  let running: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => {
    running = running
      .then(reportAll)
      .catch((error: unknown) => deps.log.error({ err: error }, 'could not report text outcomes'));
  }, smsReportEveryMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
