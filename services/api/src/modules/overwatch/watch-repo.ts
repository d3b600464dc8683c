import type { Database } from '@locus/db';

/** Teams with what Overwatch's access rules read. */
export async function findOverwatchTeams(db: Database, ids: string[]) {
  if (ids.length === 0) return [];
  return db
    .selectFrom('teams')
    .select(['id', 'team_name', 'permission_levels', 'is_active'])
    .where('id', 'in', ids)
    .execute();
}

/** A group's team and language, or undefined; archived groups cannot start a watch. */
export async function findGroupForWatch(db: Database, groupId: string) {
  return db
    .selectFrom('overwatch_groups')
    .select(['id', 'team_id', 'language', 'archived_at'])
    .where('id', '=', groupId)
    .executeTakeFirst();
}

/** The watch's kind and group: a batch may only be added to a watch. */
export async function findWatchKind(db: Database, sessionId: string) {
  return db
    .selectFrom('tracking_sessions')
    .select(['kind', 'overwatch_group_id'])
    .where('id', '=', sessionId)
    .executeTakeFirst();
}

/**
 * The numbers of a watch already reached: texted (an outbound text written) or found by the
 * lookup. A number added but not reached (a request that failed midway) is not among them, so
 * sending its batch again reaches it.
 */
export async function reachedNumbers(db: Database, sessionId: string): Promise<Set<string>> {
  const rows = await db
    .selectFrom('session_callers as c')
    .select('c.phone_number')
    .where('c.session_id', '=', sessionId)
    .where((eb) =>
      eb.or([
        eb.exists(
          eb
            .selectFrom('sms_messages as m')
            .select('m.id')
            .whereRef('m.caller_id', '=', 'c.id')
            .where('m.direction', '=', 'outbound'),
        ),
        eb.exists(
          eb
            .selectFrom('location_lookups as l')
            .select('l.id')
            .whereRef('l.caller_id', '=', 'c.id')
            .where('l.status', '=', 'found'),
        ),
      ]),
    )
    .execute();
  return new Set(rows.map((row) => row.phone_number));
}

/** The user's newest watch that has not ended, with its phones in the order they were added. */
export async function findActiveWatch(db: Database, userId: string) {
  const session = await db
    .selectFrom('tracking_sessions')
    .select(['id', 'overwatch_group_id', 'created_at'])
    .where('dispatcher_id', '=', userId)
    .where('kind', '=', 'overwatch')
    .where('status', '=', 'active')
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!session) return undefined;
  const callers = await db
    .selectFrom('session_callers')
    .select(['id', 'phone_number'])
    .where('session_id', '=', session.id)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return { ...session, callers };
}
