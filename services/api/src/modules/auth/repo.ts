import type { Database } from '@locus/db';
import { sql } from 'kysely';

export type CodePurpose = 'confirm-email' | 'reset-password';

export interface AccountRow {
  id: string;
  first_name: string;
  email: string;
  password_hash: string;
  email_confirmed_at: Date | null;
}

/**
 * The account an address signs in to, or resets the password of: the confirmed one if there is
 * one (the others can never be confirmed), else the newest unconfirmed one.
 */
export async function findAccountByEmail(
  db: Database,
  email: string,
): Promise<AccountRow | undefined> {
  return db
    .selectFrom('users')
    .select(['id', 'first_name', 'email', 'password_hash', 'email_confirmed_at'])
    .where(sql`lower(email)`, '=', email.toLowerCase())
    .orderBy(sql`email_confirmed_at is not null`, 'desc')
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
}

export async function insertUser(
  db: Database,
  user: {
    firstName: string;
    lastName: string;
    email: string;
    passwordHash: string;
    /**
     * A team admin created the account on their team (group registration): the team is the
     * agency, so there is no profile left to complete before locating.
     */
    registeredByTeamAdmin?: boolean;
  },
): Promise<string> {
  const row = await db
    .insertInto('users')
    .values({
      first_name: user.firstName,
      last_name: user.lastName,
      email: user.email,
      password_hash: user.passwordHash,
      ...(user.registeredByTeamAdmin ? { registration_completed_at: sql<Date>`now()` } : {}),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function setPassword(db: Database, userId: string, hash: string): Promise<void> {
  await db
    .updateTable('users')
    .set({ password_hash: hash, updated_at: sql<Date>`now()` })
    .where('id', '=', userId)
    .execute();
}

export async function findPasswordHash(db: Database, userId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('users')
    .select('password_hash')
    .where('id', '=', userId)
    .executeTakeFirst();
  return row?.password_hash;
}

/**
 * Sets the password only if it is still the one checked (compare and set), so two changes
 * racing cannot both pass on the same current password. False when it had changed meanwhile.
 */
export async function replacePassword(
  db: Database,
  userId: string,
  previousHash: string,
  hash: string,
): Promise<boolean> {
  const result = await db
    .updateTable('users')
    .set({ password_hash: hash, updated_at: sql<Date>`now()` })
    .where('id', '=', userId)
    .where('password_hash', '=', previousHash)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

// --- sessions

export async function insertAuthSession(
  db: Database,
  session: {
    hash: Buffer;
    userId: string;
    staySignedIn: boolean;
    ttlSeconds: number;
    /** Started through sign-in's second step: satisfies a team's MFA requirement. */
    mfaVerified?: boolean;
    /** Shown in the user's list of sessions (truncated: it is the client's to choose). */
    client?: { userAgent?: string | undefined; ip?: string | undefined };
  },
): Promise<Date> {
  const row = await db
    .insertInto('auth_sessions')
    .values({
      token_hash: session.hash,
      user_id: session.userId,
      stay_signed_in: session.staySignedIn,
      expires_at: sql<Date>`now() + make_interval(secs => ${session.ttlSeconds})`,
      user_agent: session.client?.userAgent?.slice(0, 300) ?? null,
      ip_address: session.client?.ip?.slice(0, 64) ?? null,
      ...(session.mfaVerified ? { mfa_verified_at: sql<Date>`now()` } : {}),
    })
    .returning('expires_at')
    .executeTakeFirstOrThrow();
  return row.expires_at;
}

export interface SessionRow {
  id: string;
  user_id: string;
  revoked: boolean;
  expired: boolean;
  /** Last use was long enough ago to be worth recording. */
  stale_use: boolean;
  /** Seconds since the user's last activity (the idle timeout's clock). */
  idle_seconds: number;
  /** Started through sign-in's second step, or the user's first factor was enrolled on it. */
  mfa_verified: boolean;
}

/** Compared with the database's clock, so every instance agrees on what has expired. */
export async function findAuthSession(db: Database, hash: Buffer): Promise<SessionRow | undefined> {
  return db
    .selectFrom('auth_sessions')
    .select([
      'id',
      'user_id',
      sql<number>`extract(epoch from now() - last_active_at)::float8`.as('idle_seconds'),
      sql<boolean>`revoked_at is not null`.as('revoked'),
      sql<boolean>`expires_at <= now()`.as('expired'),
      sql<boolean>`last_used_at < now() - interval '5 minutes'`.as('stale_use'),
      sql<boolean>`mfa_verified_at is not null`.as('mfa_verified'),
    ])
    .where('token_hash', '=', hash)
    .executeTakeFirst();
}

export async function touchAuthSession(db: Database, hash: Buffer): Promise<void> {
  await db
    .updateTable('auth_sessions')
    .set({ last_used_at: sql<Date>`now()` })
    .where('token_hash', '=', hash)
    .execute();
}

/** The user did something: the idle timeout starts again. */
export async function recordSessionActivity(db: Database, hash: Buffer): Promise<void> {
  await db
    .updateTable('auth_sessions')
    .set({ last_used_at: sql<Date>`now()`, last_active_at: sql<Date>`now()` })
    .where('token_hash', '=', hash)
    .execute();
}

/** The user proved a second factor on this session (enrolling it): a team's requirement is met. */
export async function markSessionMfaVerified(db: Database, hash: Buffer): Promise<void> {
  await db
    .updateTable('auth_sessions')
    .set({ mfa_verified_at: sql<Date>`now()` })
    .where('token_hash', '=', hash)
    .where('mfa_verified_at', 'is', null)
    .execute();
}

export async function revokeAuthSession(db: Database, hash: Buffer): Promise<void> {
  await db
    .updateTable('auth_sessions')
    .set({ revoked_at: sql<Date>`now()` })
    .where('token_hash', '=', hash)
    .where('revoked_at', 'is', null)
    .execute();
}

export async function revokeUserSessions(db: Database, userId: string): Promise<number> {
  const result = await db
    .updateTable('auth_sessions')
    .set({ revoked_at: sql<Date>`now()` })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** The signed-in user's facts the guards need. */
export async function findPrincipal(db: Database, userId: string) {
  const user = await db
    .selectFrom('users')
    .select(['id', 'email', 'first_name', 'last_name', 'is_admin'])
    .select((eb) =>
      eb
        .or([
          eb.exists(
            eb
              .selectFrom('user_totp')
              .select('user_id')
              .whereRef('user_totp.user_id', '=', 'users.id')
              .where('confirmed_at', 'is not', null),
          ),
          eb.exists(
            eb
              .selectFrom('webauthn_credentials')
              .select('user_id')
              .whereRef('webauthn_credentials.user_id', '=', 'users.id'),
          ),
        ])
        .as('has_mfa'),
    )
    .where('id', '=', userId)
    .executeTakeFirst();
  if (!user) return undefined;
  const teams = await db
    .selectFrom('team_members as m')
    .innerJoin('teams as t', 't.id', 'm.team_id')
    .select([
      't.id',
      't.is_platform_owner',
      't.is_coast_guard',
      't.require_mfa',
      't.idle_timeout_minutes',
      'm.role',
    ])
    .where('m.user_id', '=', userId)
    .execute();
  return { user, teams };
}

// --- one-time codes

export async function insertCode(
  db: Database,
  code: { hash: Buffer; userId: string; purpose: CodePurpose; ttlSeconds: number },
): Promise<void> {
  await db
    .insertInto('one_time_codes')
    .values({
      code_hash: code.hash,
      user_id: code.userId,
      purpose: code.purpose,
      expires_at: sql<Date>`now() + make_interval(secs => ${code.ttlSeconds})`,
    })
    .execute();
}

/**
 * Uses a code: one statement, so two requests with the same code cannot both succeed. Returns
 * the user it belongs to, or undefined when it is unknown, used, expired or for another purpose.
 */
export async function consumeCode(
  db: Database,
  hash: Buffer,
  purpose: CodePurpose,
): Promise<string | undefined> {
  const row = await db
    .updateTable('one_time_codes')
    .set({ used_at: sql<Date>`now()` })
    .where('code_hash', '=', hash)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', sql<Date>`now()`)
    .returning('user_id')
    .executeTakeFirst();
  return row?.user_id;
}

/** Makes the user's other outstanding codes of this purpose useless. */
export async function retireCodes(db: Database, userId: string, purpose: CodePurpose) {
  await db
    .updateTable('one_time_codes')
    .set({ used_at: sql<Date>`now()` })
    .where('user_id', '=', userId)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .execute();
}

// --- teams (group registration)

export async function findTeam(db: Database, teamId: string) {
  return db
    .selectFrom('teams')
    .select(['id', 'team_name'])
    .where('id', '=', teamId)
    .executeTakeFirst();
}

export async function findConfirmedByEmails(db: Database, emails: readonly string[]) {
  if (emails.length === 0) return [];
  return db
    .selectFrom('users')
    .select(['id', sql<string>`lower(email)`.as('email')])
    .where(sql`lower(email)`, 'in', emails)
    .where('email_confirmed_at', 'is not', null)
    .execute();
}

export async function addTeamMembers(
  db: Database,
  teamId: string,
  members: readonly { userId: string; role: 'admin' | 'member' }[],
): Promise<void> {
  if (members.length === 0) return;
  await db
    .insertInto('team_members')
    .values(
      members.map((member) => ({ team_id: teamId, user_id: member.userId, role: member.role })),
    )
    .onConflict((oc) => oc.columns(['team_id', 'user_id']).doNothing())
    .execute();
}
