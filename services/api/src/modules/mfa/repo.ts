import type { Database } from '@locus/db';
import { sql } from 'kysely';

export interface TotpRow {
  secret_ciphertext: string;
  confirmed: boolean;
  last_time_step: number | null;
}

export async function findTotp(db: Database, userId: string): Promise<TotpRow | undefined> {
  return db
    .selectFrom('user_totp')
    .select([
      'secret_ciphertext',
      'last_time_step',
      sql<boolean>`confirmed_at is not null`.as('confirmed'),
    ])
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

/** A new, unconfirmed secret replaces an unconfirmed one; a confirmed one is never replaced. */
export async function savePendingTotp(
  db: Database,
  userId: string,
  secretCiphertext: string,
): Promise<boolean> {
  const row = await db
    .insertInto('user_totp')
    .values({ user_id: userId, secret_ciphertext: secretCiphertext })
    .onConflict((oc) =>
      oc
        .column('user_id')
        .doUpdateSet({
          secret_ciphertext: secretCiphertext,
          created_at: sql<Date>`now()`,
          last_time_step: null,
        })
        .where('user_totp.confirmed_at', 'is', null),
    )
    .returning('user_id')
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Records that a code of `timeStep` was accepted, in one statement, so that two requests with the
 * same code cannot both pass. False when that step (or a later one) was already used.
 */
export async function claimTimeStep(
  db: Database,
  userId: string,
  timeStep: number,
  options: { confirm: boolean },
): Promise<boolean> {
  const row = await db
    .updateTable('user_totp')
    .set({
      last_time_step: timeStep,
      ...(options.confirm ? { confirmed_at: sql<Date>`now()` } : {}),
    })
    .where('user_id', '=', userId)
    .where((eb) => eb.or([eb('last_time_step', 'is', null), eb('last_time_step', '<', timeStep)]))
    .where('confirmed_at', options.confirm ? 'is' : 'is not', null)
    .returning('user_id')
    .executeTakeFirst();
  return row !== undefined;
}

export async function deleteTotp(db: Database, userId: string): Promise<void> {
  await db.deleteFrom('user_totp').where('user_id', '=', userId).execute();
  await db.deleteFrom('mfa_recovery_codes').where('user_id', '=', userId).execute();
}

export async function replaceRecoveryCodes(
  db: Database,
  userId: string,
  hashes: readonly Buffer[],
): Promise<void> {
  await db.deleteFrom('mfa_recovery_codes').where('user_id', '=', userId).execute();
  await db
    .insertInto('mfa_recovery_codes')
    .values(hashes.map((hash) => ({ user_id: userId, code_hash: hash })))
    .execute();
}

/** Uses a recovery code: one statement, so it works once. */
export async function useRecoveryCode(
  db: Database,
  userId: string,
  hash: Buffer,
): Promise<boolean> {
  const row = await db
    .updateTable('mfa_recovery_codes')
    .set({ used_at: sql<Date>`now()` })
    .where('user_id', '=', userId)
    .where('code_hash', '=', hash)
    .where('used_at', 'is', null)
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

export async function countUnusedRecoveryCodes(db: Database, userId: string): Promise<number> {
  const row = await db
    .selectFrom('mfa_recovery_codes')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}
