import type { JobPayload } from '@locus/contract';
import { UnrecoverableError } from 'bullmq';
import type { JobContext } from '../../processor';
import { TerminalEmailError } from '../../providers/email';
import { findEmail, markSent, recordFailure } from './repo';

/**
 * `email.send`: the row is the source of truth. A row already sent (or given up on) is left
 * alone, so a job that runs twice sends once. A refused address fails the row for good;
 * anything else is retried by BullMQ, then by the sweeper.
 */
export async function emailSend(
  payload: JobPayload<'emailSend'>,
  { db, log, email }: JobContext,
): Promise<{ sent: boolean; provider?: string; skipped?: string }> {
  const row = await findEmail(db, payload.emailId);
  if (!row) {
    log.warn({ emailId: payload.emailId }, 'e-mail row not found; nothing to send');
    return { sent: false, skipped: 'missing' };
  }
  if (row.status !== 'queued') return { sent: false, skipped: row.status };
  try {
    await email.send({ to: row.to_address, subject: row.subject, text: row.text });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const terminal = error instanceof TerminalEmailError;
    await recordFailure(db, row.id, message, terminal);
    if (terminal) throw new UnrecoverableError(message);
    throw error;
  }
  await markSent(db, row.id, email.name);
  return { sent: true, provider: email.name };
}
