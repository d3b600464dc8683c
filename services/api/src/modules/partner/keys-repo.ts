import type { Database } from '@locus/db';
import { sql } from 'kysely';

/** A key row as the admin screen and the partner guard read it. */
export interface ApiKeyRow {
  id: string;
  teamId: string;
  name: string;
  prefix: string;
  scopes: string[];
  expiresAt: Date | null;
  createdAt: Date;
  createdBy: string | null;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

const keyColumns = [
  'k.id',
  'k.team_id as teamId',
  'k.name',
  'k.prefix',
  'k.scopes',
  'k.expires_at as expiresAt',
  'k.created_at as createdAt',
  'k.last_used_at as lastUsedAt',
  'k.revoked_at as revokedAt',
] as const;

function keys(db: Database) {
  return db
    .selectFrom('partner_api_keys as k')
    .leftJoin('users as u', 'u.id', 'k.created_by')
    .select(keyColumns)
    .select(
      sql<string | null>`nullif(trim(u.first_name || ' ' || u.last_name), '')`.as('createdBy'),
    );
}

export async function listKeys(db: Database, teamId: string): Promise<ApiKeyRow[]> {
  return keys(db).where('k.team_id', '=', teamId).orderBy('k.created_at', 'desc').execute();
}

export async function findKey(db: Database, teamId: string, id: string) {
  return keys(db).where('k.team_id', '=', teamId).where('k.id', '=', id).executeTakeFirst();
}

/** Keys that still work: neither revoked nor expired. */
export async function countLiveKeys(db: Database, teamId: string): Promise<number> {
  const { count } = await db
    .selectFrom('partner_api_keys')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('team_id', '=', teamId)
    .where('revoked_at', 'is', null)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', sql<Date>`now()`)]))
    .executeTakeFirstOrThrow();
  return Number(count);
}

export async function insertKey(
  db: Database,
  key: {
    teamId: string;
    name: string;
    prefix: string;
    secretHash: Buffer;
    scopes: string[];
    expiresAt: Date | null;
    createdBy: string;
  },
): Promise<string> {
  const { id } = await db
    .insertInto('partner_api_keys')
    .values({
      team_id: key.teamId,
      name: key.name,
      prefix: key.prefix,
      secret_hash: key.secretHash,
      scopes: key.scopes,
      expires_at: key.expiresAt,
      created_by: key.createdBy,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/** Revokes a live key; a revoked one keeps its first revocation. */
export async function revokeKey(db: Database, id: string, by: string): Promise<boolean> {
  const result = await db
    .updateTable('partner_api_keys')
    .set({ revoked_at: sql<Date>`now()`, revoked_by: by })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** What a presented credential resolves to, whatever its state: the guard says why it fails. */
export interface PresentedKey {
  keyId: string;
  teamId: string;
  prefix: string;
  scopes: string[];
  revoked: boolean;
  expired: boolean;
  teamUsable: boolean;
  /** `last_used_at` is a minute old or more (or unset): the request should record its use. */
  staleUse: boolean;
}

function presented(db: Database) {
  return db
    .selectFrom('partner_api_keys as k')
    .innerJoin('teams as t', 't.id', 'k.team_id')
    .select([
      'k.id as keyId',
      'k.team_id as teamId',
      'k.prefix',
      sql<boolean>`k.revoked_at is not null`.as('revoked'),
      sql<boolean>`t.is_active and 'enterprise' = any (t.permission_levels)`.as('teamUsable'),
      sql<boolean>`coalesce(k.last_used_at < now() - interval '1 minute', true)`.as('staleUse'),
    ]);
}

export async function findKeyBySecret(
  db: Database,
  secretHash: Buffer,
): Promise<(PresentedKey & { secondsLeft: number | null }) | undefined> {
  return presented(db)
    .select([
      'k.scopes',
      sql<boolean>`coalesce(k.expires_at <= now(), false)`.as('expired'),
      sql<number | null>`floor(extract(epoch from k.expires_at - now()))::int`.as('secondsLeft'),
    ])
    .where('k.secret_hash', '=', secretHash)
    .executeTakeFirst();
}

/** An access token, with the scopes it was issued for; expired when it or its key is. */
export async function findKeyByAccessToken(
  db: Database,
  tokenHash: Buffer,
): Promise<PresentedKey | undefined> {
  return presented(db)
    .innerJoin('partner_access_tokens as a', 'a.key_id', 'k.id')
    .select([
      'a.scopes',
      sql<boolean>`a.expires_at <= now() or coalesce(k.expires_at <= now(), false)`.as('expired'),
    ])
    .where('a.token_hash', '=', tokenHash)
    .executeTakeFirst();
}

export async function insertAccessToken(
  db: Database,
  token: { hash: Buffer; keyId: string; scopes: string[]; ttlSeconds: number },
): Promise<void> {
  await db
    .insertInto('partner_access_tokens')
    .values({
      token_hash: token.hash,
      key_id: token.keyId,
      scopes: token.scopes,
      expires_at: sql<Date>`now() + make_interval(secs => ${token.ttlSeconds})`,
    })
    .execute();
  // Expired tokens of the key are of no use to anyone: dropped as new ones are issued, so a
  // client that asks for a token before every call keeps at most an hour's worth.
  await db
    .deleteFrom('partner_access_tokens')
    .where('key_id', '=', token.keyId)
    .where('expires_at', '<', sql<Date>`now()`)
    .execute();
}

/**
 * `last_used_at` to the minute: the guard calls this only for a stale use (`staleUse`), so a
 * busy integration is not a write per request; the condition keeps concurrent ones to one.
 */
export async function touchKey(db: Database, keyId: string): Promise<void> {
  await db
    .updateTable('partner_api_keys')
    .set({ last_used_at: sql<Date>`now()` })
    .where('id', '=', keyId)
    .where((eb) =>
      eb.or([
        eb('last_used_at', 'is', null),
        eb('last_used_at', '<', sql<Date>`now() - interval '1 minute'`),
      ]),
    )
    .execute();
}

/** A team's name, state and levels, for the enterprise check. */
export async function findTeamLevels(db: Database, teamId: string) {
  return db
    .selectFrom('teams')
    .select(['id', 'team_name as name', 'is_active as isActive', 'permission_levels as levels'])
    .where('id', '=', teamId)
    .executeTakeFirst();
}
