import { sql, type Kysely } from 'kysely';

// Multi-factor authentication (CJIS advanced authentication) and idle sessions (CJIS 5.5.5,
// ASVS 3.3).
// - user_totp: one authenticator app per user. The secret is encrypted by the API (AES-GCM with
//   MFA_ENCRYPTION_KEY), never stored in clear and never returned once enrolment is confirmed.
//   last_time_step is the newest 30-second step a code was accepted for: a code is refused for
//   that step and earlier, so a code seen over a shoulder cannot be replayed.
// - mfa_recovery_codes: ten single-use codes, only their SHA-256 stored.
// - auth_sessions.last_active_at: the last time the user did something (an activity ping from the
//   console, any request that changes something), for the idle timeout; last_used_at keeps
//   counting every request. id names a session in the profile's list without its token hash.
// - teams.require_mfa, teams.idle_timeout_minutes: a team admin's policy for the team's members.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table auth_sessions
      add column id uuid not null default gen_random_uuid(),
      add column last_active_at timestamptz not null default now(),
      add column user_agent text,
      add column ip_address text;
    create unique index auth_sessions_id on auth_sessions (id);

    alter table teams
      add column require_mfa boolean not null default false,
      add column idle_timeout_minutes integer
        constraint teams_idle_timeout_minutes_check check (idle_timeout_minutes between 1 and 720);

    create table user_totp (
      user_id uuid primary key references users (id) on delete cascade,
      secret_ciphertext text not null,
      confirmed_at timestamptz,
      last_time_step integer,
      created_at timestamptz not null default now()
    );

    create table mfa_recovery_codes (
      id uuid primary key default gen_random_uuid(),
      user_id uuid not null references users (id) on delete cascade,
      code_hash bytea not null unique,
      used_at timestamptz,
      created_at timestamptz not null default now()
    );
    create index mfa_recovery_codes_user on mfa_recovery_codes (user_id);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop table mfa_recovery_codes;
    drop table user_totp;
    alter table teams drop column require_mfa, drop column idle_timeout_minutes;
    alter table auth_sessions
      drop column id, drop column last_active_at, drop column user_agent, drop column ip_address;
  `.execute(db);
}
