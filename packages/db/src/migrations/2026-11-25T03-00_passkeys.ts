import { sql, type Kysely } from 'kysely';

// WebAuthn passkeys as a second factor (CJIS advanced authentication), beside the authenticator
// app of user_totp. One row per registered authenticator:
// - credential_id: the authenticator's id for the key (base64url), unique across all users.
// - public_key: the COSE public key the signatures are checked with; no secret is stored.
// - counter: the authenticator's signature counter; an assertion whose counter is not above it
//   is refused (a cloned key), and the update is one statement so two requests cannot both pass.
// - transports: what the browser reported (usb, internal, hybrid …), handed back as a hint.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table webauthn_credentials (
      id uuid primary key default gen_random_uuid(),
      user_id uuid not null references users (id) on delete cascade,
      credential_id text not null unique,
      public_key bytea not null,
      counter bigint not null default 0,
      transports text[] not null default '{}',
      name text not null,
      created_at timestamptz not null default now(),
      last_used_at timestamptz
    );
    create index webauthn_credentials_user on webauthn_credentials (user_id);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table webauthn_credentials;`.execute(db);
}
