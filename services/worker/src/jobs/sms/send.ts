import type { JobPayload } from '@locus/contract';
import { UnrecoverableError, type Job } from 'bullmq';
import type { JobContext } from '../../processor';
import { SmsError } from '../../providers/sms';
import {
  applyEarlyReports,
  findSms,
  markSendAttempt,
  providerIdHeldElsewhere,
  markSmsFailed,
  markSmsSent,
  recordSmsAttemptError,
} from './repo';

/**
 * `sms.send`: the row is the source of truth, so a job that runs twice texts once. A number that
 * texted STOP is never texted; a refusal no retry can fix (landline, invalid number) fails the
 * row at once; anything else is retried by BullMQ, and the last failed attempt fails the row.
 */
export async function smsSend(
  payload: JobPayload<'smsSend'>,
  { db, log, sms, config, job }: JobContext,
): Promise<{ sent: boolean; skipped?: string }> {
  const row = await findSms(db, payload.smsId);
  if (!row) return { sent: false, skipped: 'missing' };
  if (row.status !== 'queued') {
    // A run that committed the id and died before applying the reports kept for it (a stalled
    // job run again): they are applied now, or they would wait in `sms_early_reports` for good.
    if (row.provider_message_id) await applyEarlyReports(db, row.id, row.provider_message_id);
    return { sent: false, skipped: row.status };
  }
  if (row.opted_out) {
    await markSmsFailed(db, row.id, sms.name, 'opted-out');
    return { sent: false, skipped: 'opted-out' };
  }
  try {
    // An earlier attempt may have reached the provider and died before storing its answer: a
    // provider that can tell says whether it has the text, and then it is stored, not resent.
    const earlier = await markSendAttempt(db, row.id);
    const already = earlier ? await findEarlierSend(db, sms, row, earlier, log) : undefined;
    if (already) {
      await markSmsSent(
        db,
        row.id,
        sms.name,
        already.providerMessageId,
        withoutLinkToken(row.body),
      );
      await applyEarlyReports(db, row.id, already.providerMessageId);
      log.warn({ smsId: row.id }, 'text found at the provider after a lost answer; not sent again');
      return { sent: true, skipped: 'already-sent' };
    }
    const sent = await sms.send({
      to: row.phone_number,
      body: row.body,
      ...(config.PUBLIC_URL && sms.name === 'twilio'
        ? { statusCallbackUrl: `${config.PUBLIC_URL.replace(/\/+$/, '')}/api/v1/sms/twilio/status` }
        : {}),
    });
    // A live link must not sit in the database: once a real provider has the text, the stored
    // copy keeps everything but the token. The outbox is the delivery itself, so it keeps it.
    await markSmsSent(
      db,
      row.id,
      sms.name,
      sent.providerMessageId,
      sms.name === 'outbox' ? undefined : withoutLinkToken(row.body),
    );
    await applyEarlyReports(db, row.id, sent.providerMessageId);
    return { sent: true };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (error instanceof SmsError && error.terminal) {
      await markSmsFailed(db, row.id, sms.name, error.code);
      throw new UnrecoverableError(message);
    }
    if (isLastAttempt(job)) await markSmsFailed(db, row.id, sms.name, message);
    else await recordSmsAttemptError(db, row.id, message);
    log.warn({ err: error, smsId: row.id }, 'text message not sent; will retry');
    throw error;
  }
}

/**
 * The provider's copy of this text, if an earlier attempt got it there. Only a link text can be
 * told apart from the caller's other texts (its token is in no other); a text without one is
 * sent again, as is one whose copy another row already holds. A failed lookup must not stop the
 * text either: better twice than never (logged, then sent).
 */
async function findEarlierSend(
  db: JobContext['db'],
  sms: JobContext['sms'],
  row: { id: string; phone_number: string; body: string },
  firstAttempt: Date,
  log: JobContext['log'],
) {
  const token = linkTokenOf(row.body);
  if (!token || !sms.findSent) return undefined;
  try {
    const found = await sms.findSent({
      to: row.phone_number,
      token,
      // The provider's clock and ours: a minute either way.
      since: new Date(firstAttempt.getTime() - 60_000),
    });
    if (found && (await providerIdHeldElsewhere(db, found.providerMessageId, row.id)))
      return undefined;
    return found;
  } catch (error) {
    log.warn({ err: error, smsId: row.id }, 'could not ask the provider for an earlier send');
    return undefined;
  }
}

const linkToken = /[?&]token=([A-Za-z0-9_-]{16,})/;
const linkTokenOf = (body: string): string | undefined => linkToken.exec(body)?.[1];

export function withoutLinkToken(body: string): string {
  return body.replace(/([?&]token=)[A-Za-z0-9_-]+/g, '$1[sent]');
}

function isLastAttempt(job: Pick<Job, 'attemptsMade' | 'opts'> | undefined): boolean {
  return job !== undefined && job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
}
