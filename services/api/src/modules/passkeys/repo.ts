import type { Database } from '@locus/db';
import { sql } from 'kysely';

export interface PasskeyRow {
  id: string;
  credential_id: string;
  public_key: Buffer;
  counter: number;
  transports: string[];
  name: string;
  created_at: Date;
  last_used_at: Date | null;
}

const columns = [
  'id',
  'credential_id',
  'public_key',
  'transports',
  'name',
  'created_at',
  'last_used_at',
] as const;

export async function listPasskeys(db: Database, userId: string): Promise<PasskeyRow[]> {
  const rows = await db
    .selectFrom('webauthn_credentials')
    .select(columns)
    .select(sql<string>`counter::text`.as('counter'))
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map((row) => ({ ...row, counter: Number(row.counter) }));
}

export async function countPasskeys(db: Database, userId: string): Promise<number> {
  const row = await db
    .selectFrom('webauthn_credentials')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Undefined when the credential id is registered already (to this user or another). */
export async function insertPasskey(
  db: Database,
  passkey: {
    userId: string;
    credentialId: string;
    publicKey: Buffer;
    counter: number;
    transports: string[];
    name: string;
  },
): Promise<PasskeyRow | undefined> {
  const row = await db
    .insertInto('webauthn_credentials')
    .values({
      user_id: passkey.userId,
      credential_id: passkey.credentialId,
      public_key: passkey.publicKey,
      counter: passkey.counter,
      transports: passkey.transports,
      name: passkey.name,
    })
    .onConflict((oc) => oc.column('credential_id').doNothing())
    .returning(columns)
    .executeTakeFirst();
  return row ? { ...row, counter: passkey.counter } : undefined;
}

/**
 * Records an accepted assertion in one statement: the counter moves forward (or both stay 0, for
 * authenticators without a counter), so two requests with the same assertion cannot both pass.
 */
export async function claimCounter(db: Database, id: string, counter: number): Promise<boolean> {
  const row = await db
    .updateTable('webauthn_credentials')
    .set({ counter, last_used_at: sql<Date>`now()` })
    .where('id', '=', id)
    .where((eb) => (counter === 0 ? eb('counter', '=', '0') : eb('counter', '<', String(counter))))
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

/** Removes one of the user's passkeys; false when the user has no passkey of that id. */
export async function deletePasskey(db: Database, userId: string, id: string): Promise<boolean> {
  const result = await db
    .deleteFrom('webauthn_credentials')
    .where('user_id', '=', userId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
