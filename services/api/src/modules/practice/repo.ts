import type { Database } from '@locus/db';
import { sql } from 'kysely';
import { advanceSessionIn } from '../location/lifecycle';

/**
 * The practice caller's link token, issued as `request-text-message-location` issues a real
 * caller's (location/repo.ts `insertLinkAndSms`), in one transaction that holds the session's
 * row: earlier links of the caller stop working, the caller takes the script's language, and the
 * session-lifecycle machine hears TEXT_QUEUED. No `sms_messages` row is written: nothing is
 * texted, and the metrics' text counters (triggers on that table) see nothing. False when the
 * session has ended.
 */
export async function issuePracticeLink(
  db: Database,
  input: {
    sessionId: string;
    callerId: string;
    language: string;
    tokenHash: Buffer;
    openWithinSeconds: number;
    hardCapSeconds: number;
  },
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const queued = await advanceSessionIn(trx, input.sessionId, {
      type: 'TEXT_QUEUED',
      at: Date.now(),
    });
    if (!queued?.taken) return false;
    await trx
      .updateTable('connection_tokens')
      .set({ revoked_at: sql<Date>`now()` })
      .where('caller_id', '=', input.callerId)
      .where('kind', '=', 'caller')
      .where('revoked_at', 'is', null)
      .execute();
    await trx
      .updateTable('session_callers')
      .set({ language: input.language })
      .where('id', '=', input.callerId)
      .execute();
    await trx
      .insertInto('connection_tokens')
      .values({
        token_hash: input.tokenHash,
        kind: 'caller',
        session_id: input.sessionId,
        caller_id: input.callerId,
        expires_at: sql<Date>`now() + make_interval(secs => ${Math.min(input.openWithinSeconds, input.hardCapSeconds)})`,
        hard_expires_at: sql<Date>`now() + make_interval(secs => ${input.hardCapSeconds})`,
      })
      .execute();
    return true;
  });
}
