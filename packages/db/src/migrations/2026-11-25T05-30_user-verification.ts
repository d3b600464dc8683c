import { sql, type Kysely } from 'kysely';

// The platform owner vets accounts that no agency vouches for yet (issue 11, verification): a
// user who registered with an agency that is not listed, or from an e-mail domain that is not
// cleared, waits until approved or rejected. The decision is kept on the user, so it is asked
// once: an approved user passes the cleared-domain check of locating (location/access.ts) on
// their very next request, without signing in again.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table users
      add column verification_status text check (verification_status in ('approved', 'rejected')),
      add column verified_at timestamptz,
      add column verified_by uuid references users (id) on delete set null,
      add column verification_reason text,
      add constraint users_verification_decided
        check ((verification_status is null) = (verified_at is null));
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table users
      drop constraint users_verification_decided,
      drop column verification_reason,
      drop column verified_by,
      drop column verified_at,
      drop column verification_status;
  `.execute(db);
}
