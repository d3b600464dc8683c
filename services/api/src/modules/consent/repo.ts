import type { ConsentShownText } from '@locus/contract';
import type { Database } from '@locus/db';

/** The agency name the caller's page showed for this session (`findCallerLinkState`'s). */
export async function sessionAgencyName(db: Database, sessionId: string): Promise<string> {
  const row = await db
    .selectFrom('tracking_sessions as s')
    .leftJoin('teams as team', 'team.id', 's.team_id')
    .select('team.team_name')
    .where('s.id', '=', sessionId)
    .executeTakeFirst();
  return row?.team_name ?? 'Emergency services';
}

export interface NewConsentReceipt {
  sessionId: string;
  callerId: string;
  language: string;
  catalogueVersion: string;
  agencyName: string;
  shownText: ConsentShownText & { screen: string; renderedFromVersion: string };
  tappedAt: Date | null;
  receivedAt: Date;
  userAgent: string | null;
}

export async function insertConsentReceipt(db: Database, receipt: NewConsentReceipt) {
  return db
    .insertInto('consent_receipts')
    .values({
      session_id: receipt.sessionId,
      caller_id: receipt.callerId,
      language: receipt.language,
      catalogue_version: receipt.catalogueVersion,
      agency_name: receipt.agencyName,
      shown_text: JSON.stringify(receipt.shownText),
      tapped_at: receipt.tappedAt,
      received_at: receipt.receivedAt,
      user_agent: receipt.userAgent,
    })
    .returning(['id', 'received_at'])
    .executeTakeFirstOrThrow();
}
