import type { Database } from '../connection';

/**
 * The session's team (name, zone) and its chat with each caller's number, oldest first: what the
 * chat transcript is written from (issue 12). Shared by the API's Download Chat and the worker's
 * export, which may not import each other. Rows still holding their provisional (negative) seq
 * were never announced and are left out.
 */
export async function readChatTranscript(db: Database, sessionId: string) {
  const team = await db
    .selectFrom('tracking_sessions as s')
    .leftJoin('teams as t', 't.id', 's.team_id')
    .select(['t.team_name', 't.time_zone'])
    .where('s.id', '=', sessionId)
    .executeTakeFirst();
  const messages = await db
    .selectFrom('chat_messages as m')
    .innerJoin('session_callers as c', 'c.id', 'm.caller_id')
    .select([
      'm.sent_at',
      'm.seq',
      'm.sender',
      'm.sender_name',
      'c.phone_number',
      'm.body',
      'm.language',
      'm.translation_language',
      'm.translation_text',
      'm.translation_status',
    ])
    .where('m.session_id', '=', sessionId)
    .where('m.seq', '>', 0)
    .orderBy('m.seq')
    .execute();
  return { teamName: team?.team_name ?? null, timeZone: team?.time_zone ?? 'UTC', messages };
}
