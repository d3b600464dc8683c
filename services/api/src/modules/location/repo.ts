import type { Database, DB } from '@locus/db';
import type { SessionLifecycleEvent } from '@locus/machines/session-lifecycle';
import { sql, type Transaction } from 'kysely';
import { recordWebhookFacts } from '../webhooks/outbox';
import { advanceSessionIn } from './lifecycle';

export interface DispatcherProfile {
  firstName: string;
  lastName: string;
  email: string;
  emailConfirmed: boolean;
  registrationCompleted: boolean;
  /** The platform owner approved the account (verification): its domain need not be cleared. */
  verificationApproved: boolean;
  /**
   * The team the user locates for: the first active team they joined, or null when they are on
   * no active team (an inactive team never locates, even when it is the user's first).
   */
  team: { id: string; name: string; isActive: boolean; lookupActive: boolean } | null;
}

export async function findDispatcherProfile(
  db: Database,
  userId: string,
): Promise<DispatcherProfile | undefined> {
  const user = await db
    .selectFrom('users')
    .select([
      'first_name',
      'last_name',
      'email',
      'email_confirmed_at',
      'registration_completed_at',
      'verification_status',
    ])
    .where('id', '=', userId)
    .executeTakeFirst();
  if (!user) return undefined;
  const team = await db
    .selectFrom('team_members as m')
    .innerJoin('teams as t', 't.id', 'm.team_id')
    .select(['t.id', 't.team_name', 't.is_active', 't.lookup_active'])
    .where('m.user_id', '=', userId)
    .where('t.is_active', '=', true)
    .orderBy('m.created_at')
    .orderBy('t.team_name')
    .executeTakeFirst();
  return {
    firstName: user.first_name,
    lastName: user.last_name,
    email: user.email,
    emailConfirmed: user.email_confirmed_at !== null,
    registrationCompleted: user.registration_completed_at !== null,
    verificationApproved: user.verification_status === 'approved',
    team: team
      ? {
          id: team.id,
          name: team.team_name,
          isActive: team.is_active,
          lookupActive: team.lookup_active,
        }
      : null,
  };
}

export interface TeamRow {
  name: string;
  isActive: boolean;
  lookupActive: boolean;
}

export async function findTeam(db: Database, teamId: string): Promise<TeamRow | undefined> {
  const row = await db
    .selectFrom('teams')
    .select(['team_name', 'is_active', 'lookup_active'])
    .where('id', '=', teamId)
    .executeTakeFirst();
  return row
    ? { name: row.team_name, isActive: row.is_active, lookupActive: row.lookup_active }
    : undefined;
}

export async function isClearedDomain(db: Database, domain: string): Promise<boolean> {
  const row = await db
    .selectFrom('cleared_email_domains')
    .select('domain')
    .where(sql`lower(domain)`, '=', domain.toLowerCase())
    .executeTakeFirst();
  return row !== undefined;
}

export interface SessionRow {
  id: string;
  teamId: string | null;
  createdBy: string | null;
  status: string;
  locationType: 'TEXT_MESSAGE' | 'RAPID_SOS' | null;
  createdAt: Date;
  /** Practice mode (issue 14): a simulated caller, nobody texted. */
  practice?: boolean;
}

/**
 * The session if `userId` may see it: its dispatcher, or an admin of its team (SPEC.md §6).
 * Everyone else gets undefined, so that a session of another team is indistinguishable from one
 * that does not exist.
 */
export async function findVisibleSession(
  db: Database,
  sessionId: string,
  userId: string,
): Promise<SessionRow | undefined> {
  const row = await db
    .selectFrom('tracking_sessions as s')
    .select([
      's.id',
      's.team_id',
      's.created_by',
      's.status',
      's.location_type',
      's.created_at',
      's.practice',
    ])
    .where('s.id', '=', sessionId)
    .where((eb) =>
      eb.or([
        // The session's dispatcher now (a case transfer moves it), not who opened it.
        eb('s.dispatcher_id', '=', userId),
        eb.exists(
          eb
            .selectFrom('team_members as m')
            .select('m.user_id')
            .whereRef('m.team_id', '=', 's.team_id')
            .where('m.user_id', '=', userId)
            .where('m.role', '=', 'admin'),
        ),
      ]),
    )
    .executeTakeFirst();
  return row
    ? {
        id: row.id,
        teamId: row.team_id,
        createdBy: row.created_by,
        status: row.status,
        locationType: row.location_type as SessionRow['locationType'],
        createdAt: row.created_at,
        practice: row.practice,
      }
    : undefined;
}

export interface CallerRow {
  id: string;
  phoneNumber: string;
  language: 'en' | 'es' | 'fr' | 'zh';
}

/**
 * Adds numbers to a session (a number already in it keeps its caller) and answers the callers
 * of all of them, in the order given.
 */
export async function addCallers(
  db: Database,
  sessionId: string,
  phoneNumbers: string[],
  language: CallerRow['language'],
): Promise<CallerRow[]> {
  if (phoneNumbers.length === 0) return [];
  await db
    .insertInto('session_callers')
    .values(phoneNumbers.map((phone) => ({ session_id: sessionId, phone_number: phone, language })))
    .onConflict((oc) => oc.columns(['session_id', 'phone_number']).doNothing())
    .execute();
  const rows = await db
    .selectFrom('session_callers')
    .select(['id', 'phone_number', 'language'])
    .where('session_id', '=', sessionId)
    .where('phone_number', 'in', phoneNumbers)
    .execute();
  const byNumber = new Map(rows.map((row) => [row.phone_number, row]));
  return phoneNumbers.map((phone) => {
    const row = byNumber.get(phone)!;
    return { id: row.id, phoneNumber: phone, language: row.language as CallerRow['language'] };
  });
}

/** Every caller of a session, oldest first. */
export async function findCallers(db: Database, sessionId: string): Promise<CallerRow[]> {
  const rows = await db
    .selectFrom('session_callers')
    .select(['id', 'phone_number', 'language'])
    .where('session_id', '=', sessionId)
    .orderBy('created_at')
    .orderBy('phone_number')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    phoneNumber: row.phone_number,
    language: row.language as CallerRow['language'],
  }));
}

/** The session's first caller: the number the dispatcher typed. */
export async function findFirstCaller(
  db: Database,
  sessionId: string,
): Promise<CallerRow | undefined> {
  const row = await db
    .selectFrom('session_callers')
    .select(['id', 'phone_number', 'language'])
    .where('session_id', '=', sessionId)
    .orderBy('created_at')
    .executeTakeFirst();
  return row
    ? { id: row.id, phoneNumber: row.phone_number, language: row.language as CallerRow['language'] }
    : undefined;
}

export async function insertLookup(
  db: Database,
  sessionId: string,
  callerId: string,
): Promise<string> {
  const row = await db
    .insertInto('location_lookups')
    .values({ session_id: sessionId, caller_id: callerId })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export interface LookupRow {
  status: 'pending' | 'found' | 'not-found' | 'failed' | 'timed-out';
  error: string | null;
  latitude: number | null;
  longitude: number | null;
  uncertaintyRadiusM: number | null;
  altitude: number | null;
  address: string | null;
  capturedAt: Date | null;
}

export async function findLookup(db: Database, lookupId: string): Promise<LookupRow | undefined> {
  const row = await db
    .selectFrom('location_lookups')
    .selectAll()
    .where('id', '=', lookupId)
    .executeTakeFirst();
  return row
    ? {
        status: row.status as LookupRow['status'],
        error: row.error,
        latitude: row.latitude,
        longitude: row.longitude,
        uncertaintyRadiusM: row.uncertainty_radius_m,
        altitude: row.altitude,
        address: row.address,
        capturedAt: row.captured_at,
      }
    : undefined;
}

/** A lookup the worker did not answer in time; a late answer is then ignored. */
export async function markLookupTimedOut(db: Database, lookupId: string): Promise<void> {
  await db
    .updateTable('location_lookups')
    .set({ status: 'timed-out', error: 'lookup-timeout', answered_at: sql<Date>`now()` })
    .where('id', '=', lookupId)
    .where('status', '=', 'pending')
    .execute();
}

export async function isOptedOut(db: Database, phoneNumber: string): Promise<boolean> {
  const row = await db
    .selectFrom('sms_opt_outs')
    .select('phone_number')
    .where('phone_number', '=', phoneNumber)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Holds off an end of the session until the transaction's text is written, and tells the
 * session-lifecycle machine: false when the machine refuses (the session has ended: the text
 * must not be written).
 */
async function lockActiveSession(
  trx: Transaction<DB>,
  sessionId: string,
  event: SessionLifecycleEvent,
): Promise<boolean> {
  return (await advanceSessionIn(trx, sessionId, event))?.taken === true;
}

/**
 * The caller's link token and the text that carries it, in one transaction: a text is never
 * sent for a link that does not exist. Earlier links of the same caller stop working.
 */
export async function insertLinkAndSms(
  db: Database,
  input: {
    sessionId: string;
    caller: CallerRow;
    language: CallerRow['language'];
    tokenHash: Buffer;
    openWithinSeconds: number;
    hardCapSeconds: number;
    body: string;
  },
): Promise<string | null> {
  return db.transaction().execute(async (trx) => {
    const queued = { type: 'TEXT_QUEUED', at: Date.now() } as const;
    if (!(await lockActiveSession(trx, input.sessionId, queued))) return null;
    await trx
      .updateTable('connection_tokens')
      .set({ revoked_at: sql<Date>`now()` })
      .where('caller_id', '=', input.caller.id)
      .where('kind', '=', 'caller')
      .where('revoked_at', 'is', null)
      .execute();
    await trx
      .updateTable('session_callers')
      .set({ language: input.language })
      .where('id', '=', input.caller.id)
      .execute();
    await trx
      .insertInto('connection_tokens')
      .values({
        token_hash: input.tokenHash,
        kind: 'caller',
        session_id: input.sessionId,
        caller_id: input.caller.id,
        expires_at: sql<Date>`now() + make_interval(secs => ${Math.min(input.openWithinSeconds, input.hardCapSeconds)})`,
        hard_expires_at: sql<Date>`now() + make_interval(secs => ${input.hardCapSeconds})`,
      })
      .execute();
    return queueCallerSms(trx, input.sessionId, input.caller, input.body, input.language);
  });
}

/** An outbound text to a caller, queued for `sms.send`; returns its id. */
async function queueCallerSms(
  trx: Transaction<DB>,
  sessionId: string,
  caller: CallerRow,
  body: string,
  language: CallerRow['language'],
): Promise<string> {
  const sms = await trx
    .insertInto('sms_messages')
    .values({
      direction: 'outbound',
      session_id: sessionId,
      caller_id: caller.id,
      phone_number: caller.phoneNumber,
      body,
      language,
      status: 'queued',
      // What its session has been told: that it is on its way (sms/outcome-reporter.ts).
      reported_status: 'queued',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return sms.id;
}

/**
 * A text to a caller that carries no link (e.g. "Ask for location by text"), written only while
 * the session is active. Returns the message's id, or null when the session has ended.
 */
export async function insertCallerSms(
  db: Database,
  input: { sessionId: string; caller: CallerRow; body: string },
): Promise<string | null> {
  return db.transaction().execute(async (trx) => {
    const asked = { type: 'LOCATION_ASKED_BY_TEXT', at: Date.now() } as const;
    if (!(await lockActiveSession(trx, input.sessionId, asked))) return null;
    return queueCallerSms(trx, input.sessionId, input.caller, input.body, input.caller.language);
  });
}

export async function findSmsStatus(
  db: Database,
  smsId: string,
): Promise<{ status: string; error: string | null } | undefined> {
  return db
    .selectFrom('sms_messages')
    .select(['status', 'error'])
    .where('id', '=', smsId)
    .executeTakeFirst();
}

/**
 * Ends a session once (locking it, so no text is written meanwhile; the session-lifecycle machine
 * takes END only once): revokes every token of it (the caller's link included) and, for a team
 * that exports, records the export to make. Returns the end time, or undefined when it had
 * already ended.
 */
export async function endSession(
  db: Database,
  sessionId: string,
): Promise<{ endedAt: Date; exportTeamId: string | null } | undefined> {
  return db.transaction().execute(async (trx) => {
    const step = await advanceSessionIn(trx, sessionId, { type: 'END', at: Date.now() });
    if (!step?.taken || !step.endedAt) return undefined;
    const ended = { ended_at: step.endedAt, team_id: step.teamId };
    // The team's webhooks hear of it (issue 15), in the transaction that ends it.
    if (ended.team_id)
      await recordWebhookFacts(trx, [
        {
          teamId: ended.team_id,
          event: 'session.ended',
          key: sessionId,
          at: ended.ended_at,
          data: { sessionId, endedAt: ended.ended_at.toISOString() },
        },
      ]);
    await trx
      .updateTable('connection_tokens')
      .set({ revoked_at: sql<Date>`now()` })
      .where('session_id', '=', sessionId)
      .where('revoked_at', 'is', null)
      .execute();
    let exportTeamId: string | null = null;
    if (ended.team_id) {
      const team = await trx
        .selectFrom('teams')
        .select('export_on_end')
        .where('id', '=', ended.team_id)
        .executeTakeFirst();
      if (team?.export_on_end) {
        await trx
          .insertInto('session_exports')
          .values({ session_id: sessionId, team_id: ended.team_id })
          .onConflict((oc) => oc.column('session_id').doNothing())
          .execute();
        exportTeamId = ended.team_id;
      }
    }
    return { endedAt: ended.ended_at, exportTeamId };
  });
}

/** The seq the export waits for (never lowered: a later end knows at least as much). */
export async function recordExpectedSeq(
  db: Database,
  sessionId: string,
  seq: number,
): Promise<void> {
  await db
    .updateTable('session_exports')
    .set({ expected_seq: sql<number>`greatest(coalesce(expected_seq, 0), ${seq}::int)` })
    .where('session_id', '=', sessionId)
    .execute();
}

export async function hasPendingExport(db: Database, sessionId: string): Promise<boolean> {
  const row = await db
    .selectFrom('session_exports')
    .select('session_id')
    .where('session_id', '=', sessionId)
    .where('stored_at', 'is', null)
    .executeTakeFirst();
  return row !== undefined;
}

/** The ended time of a session that had already ended (ending twice answers the same). */
export async function findEndedAt(db: Database, sessionId: string): Promise<Date | null> {
  const row = await db
    .selectFrom('tracking_sessions')
    .select('ended_at')
    .where('id', '=', sessionId)
    .executeTakeFirst();
  return row?.ended_at ?? null;
}

/**
 * The dispatcher's newest session that may be rejoined (SPEC.md §9): not ended, and a caller is
 * connected or something happened within the last `withinSeconds`.
 */
export async function findRejoinableSession(
  db: Database,
  userId: string,
  withinSeconds: number,
): Promise<
  | {
      id: string;
      createdAt: Date;
      locationType: SessionRow['locationType'];
      caller: CallerRow;
      practice: boolean;
    }
  | undefined
> {
  const row = await db
    .selectFrom('tracking_sessions as s')
    .innerJoin('session_callers as c', 'c.session_id', 's.id')
    .select([
      's.id',
      's.created_at',
      's.location_type',
      's.practice',
      'c.id as caller_id',
      'c.phone_number',
      'c.language',
    ])
    .where('s.dispatcher_id', '=', userId)
    .where('s.status', '=', 'active')
    // An Overwatch watch is reopened by the Overwatch screen, never by the dashboard.
    .where('s.kind', '=', 'dispatch')
    .where((eb) =>
      eb.or([
        eb('s.last_active_at', '>', sql<Date>`now() - make_interval(secs => ${withinSeconds})`),
        eb.exists(
          eb
            .selectFrom('session_callers as live')
            .select('live.id')
            .whereRef('live.session_id', '=', 's.id')
            .where('live.connected_until', '>', sql<Date>`now()`),
        ),
      ]),
    )
    .orderBy('s.created_at', 'desc')
    .orderBy('c.created_at')
    .executeTakeFirst();
  return row
    ? {
        id: row.id,
        createdAt: row.created_at,
        locationType: row.location_type as SessionRow['locationType'],
        practice: row.practice,
        caller: {
          id: row.caller_id,
          phoneNumber: row.phone_number,
          language: row.language as CallerRow['language'],
        },
      }
    : undefined;
}

export async function findLatestFix(db: Database, sessionId: string) {
  return db
    .selectFrom('location_fixes')
    .select([
      'latitude',
      'longitude',
      'uncertainty_radius_m',
      'altitude',
      'address',
      'source',
      'captured_at',
    ])
    .where('session_id', '=', sessionId)
    .orderBy('captured_at', 'desc')
    .limit(1)
    .executeTakeFirst();
}

export type CallerLinkState =
  | { status: 'active'; language: CallerRow['language']; agencyName: string; textCode: string }
  | { status: 'ended' | 'expired' | 'stopped'; language: CallerRow['language'] }
  | { status: 'invalid' };

/** What a caller link's token opens, without consuming it. */
export async function findCallerLinkState(db: Database, hash: Buffer): Promise<CallerLinkState> {
  const row = await db
    .selectFrom('connection_tokens as t')
    .innerJoin('tracking_sessions as s', 's.id', 't.session_id')
    .innerJoin('session_callers as c', 'c.id', 't.caller_id')
    .leftJoin('teams as team', 'team.id', 's.team_id')
    .leftJoin('sms_opt_outs as o', 'o.phone_number', 'c.phone_number')
    .select([
      's.status',
      't.revoked_at',
      sql<boolean>`t.expires_at <= now()`.as('expired'),
      'c.language',
      'c.text_code',
      'team.team_name',
      'o.phone_number as opted_out',
    ])
    .where('t.token_hash', '=', hash)
    .where('t.kind', '=', 'caller')
    .executeTakeFirst();
  if (!row) return { status: 'invalid' };
  const language = row.language as CallerRow['language'];
  if (row.status !== 'active') return { status: 'ended', language };
  if (row.opted_out) return { status: 'stopped', language };
  // A newer link replaced this one, or the number texted STOP (handled above).
  if (row.revoked_at || row.expired) return { status: 'expired', language };
  return {
    status: 'active',
    language,
    agencyName: row.team_name ?? 'Emergency services',
    textCode: row.text_code,
  };
}
