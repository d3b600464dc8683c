import type { ColorScheme } from '@locus/contract';
import type { Database } from '@locus/db';
import { sql } from 'kysely';
import type { MembershipRow, UserRow } from './view';

const userColumns = [
  'u.id',
  'u.first_name',
  'u.last_name',
  'u.email',
  'u.phone_number',
  'u.psap_id',
  'u.company_name',
  'u.is_admin',
  'u.has_seen_walkthrough',
  'u.email_confirmed_at',
  'u.uscg_status',
  'u.registration_completed_at',
  'u.created_at',
  'u.color_scheme',
] as const;

export async function findUser(db: Database, id: string): Promise<UserRow | undefined> {
  return db
    .selectFrom('users as u')
    .select(userColumns)
    .select(
      sql<boolean>`(exists (select 1 from user_totp where user_id = u.id and confirmed_at is not null) or exists (select 1 from webauthn_credentials where user_id = u.id))`.as(
        'mfa_enabled',
      ),
    )
    .where('u.id', '=', id)
    .executeTakeFirst();
}

/** The user's teams in the order they joined: SPEC.md's "first team" is the first of these. */
export async function findMemberships(db: Database, userId: string): Promise<MembershipRow[]> {
  return db
    .selectFrom('team_members as m')
    .innerJoin('teams as t', 't.id', 'm.team_id')
    .select([
      't.id as team_id',
      't.team_name',
      't.is_active',
      't.is_platform_owner',
      't.is_coast_guard',
      't.permission_levels',
      't.custom_content',
      't.require_mfa',
      'm.role',
    ])
    .where('m.user_id', '=', userId)
    .orderBy('m.created_at')
    .orderBy('t.team_name')
    .execute();
}

export interface UserChanges {
  first_name?: string;
  last_name?: string;
  phone_number?: string | null;
  has_seen_walkthrough?: boolean;
  is_admin?: boolean;
  psap_id?: number | null;
  company_name?: string | null;
  registration_completed_at?: Date;
  uscg_unit_name?: string;
  uscg_status?: 'pending' | 'approved' | 'rejected';
  uscg_requested_at?: Date;
  color_scheme?: ColorScheme;
}

/** Applies changes to a user's own columns; false when the user does not exist. */
export async function updateUser(db: Database, id: string, changes: UserChanges): Promise<boolean> {
  const result = await db
    .updateTable('users')
    .set({ ...changes, updated_at: sql<Date>`now()` })
    .where('id', '=', id)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function psapExists(db: Database, id: number): Promise<boolean> {
  const row = await db.selectFrom('psaps').select('id').where('id', '=', id).executeTakeFirst();
  return row !== undefined;
}

/**
 * Marks the user's address confirmed and deletes the other, unconfirmed accounts with that
 * address (they can never be confirmed now). Run it in a transaction. `taken` when another
 * account already owns the address; a concurrent confirmation loses on the unique index.
 */
export async function confirmAddress(
  db: Database,
  userId: string,
): Promise<'confirmed' | 'already-confirmed' | 'taken' | 'missing'> {
  const user = await db
    .selectFrom('users')
    .select(['email', 'email_confirmed_at'])
    .where('id', '=', userId)
    .executeTakeFirst();
  if (!user) return 'missing';
  if (user.email_confirmed_at !== null) return 'already-confirmed';
  const owner = await db
    .selectFrom('users')
    .select('id')
    .where(sql`lower(email)`, '=', user.email.toLowerCase())
    .where('email_confirmed_at', 'is not', null)
    .executeTakeFirst();
  if (owner) return 'taken';
  await db
    .updateTable('users')
    .set({ email_confirmed_at: sql<Date>`now()`, updated_at: sql<Date>`now()` })
    .where('id', '=', userId)
    .execute();
  await db
    .deleteFrom('users')
    .where(sql`lower(email)`, '=', user.email.toLowerCase())
    .where('id', '<>', userId)
    .where('email_confirmed_at', 'is', null)
    .execute();
  return 'confirmed';
}

/** Postgres's foreign_key_violation: a reference to a row that does not exist (an agency id). */
export function isForeignKeyViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'code' in error && error.code === '23503';
}

/** Postgres's unique_violation: a concurrent confirmation of the same address won. */
export function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'code' in error && error.code === '23505';
}
