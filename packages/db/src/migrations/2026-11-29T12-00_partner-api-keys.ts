import { sql, type Kysely } from 'kysely';

// Partner access (issue 15): API keys a team admin creates for the team's own systems, and the
// OAuth access tokens issued for them. Only SHA-256 hashes of either are stored: both are long
// random strings, so a fast hash is enough and a lookup is one index probe.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table partner_api_keys (
      id uuid primary key default gen_random_uuid(),
      team_id uuid not null references teams (id) on delete cascade,
      name text not null,
      prefix text not null,
      secret_hash bytea not null unique,
      scopes text[] not null check (cardinality(scopes) > 0),
      expires_at timestamptz,
      created_by uuid references users (id) on delete set null,
      created_at timestamptz not null default now(),
      last_used_at timestamptz,
      revoked_at timestamptz,
      revoked_by uuid references users (id) on delete set null
    );
    create index partner_api_keys_team on partner_api_keys (team_id, created_at desc);

    create table partner_access_tokens (
      token_hash bytea primary key,
      key_id uuid not null references partner_api_keys (id) on delete cascade,
      scopes text[] not null,
      expires_at timestamptz not null,
      created_at timestamptz not null default now()
    );
    create index partner_access_tokens_key on partner_access_tokens (key_id);
    create index partner_access_tokens_expiry on partner_access_tokens (expires_at);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table partner_access_tokens; drop table partner_api_keys;`.execute(db);
}
