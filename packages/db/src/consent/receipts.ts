import type { Database } from '../connection';

/**
 * A session's consent receipts (issue 15), oldest first, with the number of the caller who gave
 * each: the sessions page shows them, the export signs them into the evidence file.
 */
export async function readConsentReceipts(db: Database, sessionId: string) {
  return db
    .selectFrom('consent_receipts as r')
    .innerJoin('session_callers as c', 'c.id', 'r.caller_id')
    .select([
      'r.id',
      'c.phone_number',
      'r.language',
      'r.catalogue_version',
      'r.agency_name',
      'r.shown_text',
      'r.tapped_at',
      'r.received_at',
      'r.user_agent',
    ])
    .where('r.session_id', '=', sessionId)
    .orderBy('r.received_at')
    .orderBy('r.id')
    .execute();
}
