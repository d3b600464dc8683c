import { sql, type Kysely } from 'kysely';

// Sign-in, registration, e-mail and audit. An address may have several unconfirmed accounts
// but only one confirmed account: registering never has to reveal that an address is taken,
// and an unconfirmed duplicate of a confirmed address can never be confirmed (it is purged).
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop index users_email_unique;
    create unique index users_email_confirmed_unique on users (lower(email))
      where email_confirmed_at is not null;
    create index users_email on users (lower(email));

    alter table users
      add column company_name text,
      add column registration_completed_at timestamptz,
      add column uscg_unit_name text,
      add column uscg_status text check (uscg_status in ('pending', 'approved', 'rejected')),
      add column uscg_requested_at timestamptz;
    -- Accounts created before registration existed (the demo's) count as registered.
    update users set registration_completed_at = created_at;
    create index users_uscg_pending on users (uscg_requested_at) where uscg_status = 'pending';

    alter table teams add column is_coast_guard boolean not null default false;

    -- Bearer tokens of signed-in users. Only a SHA-256 of each token is stored.
    create table auth_sessions (
      token_hash bytea primary key,
      user_id uuid not null references users (id) on delete cascade,
      stay_signed_in boolean not null,
      expires_at timestamptz not null,
      created_at timestamptz not null default now(),
      last_used_at timestamptz not null default now(),
      revoked_at timestamptz
    );
    create index auth_sessions_user on auth_sessions (user_id);
    create index auth_sessions_expires on auth_sessions (expires_at);

    -- E-mail confirmation and password reset codes: random, stored hashed, single-use, expiring.
    create table one_time_codes (
      code_hash bytea primary key,
      user_id uuid not null references users (id) on delete cascade,
      purpose text not null check (purpose in ('confirm-email', 'reset-password')),
      expires_at timestamptz not null,
      used_at timestamptz,
      created_at timestamptz not null default now()
    );
    create index one_time_codes_user on one_time_codes (user_id, purpose);
    create index one_time_codes_expires on one_time_codes (expires_at);

    create table audit_log (
      id bigserial primary key,
      at timestamptz not null default now(),
      -- null when nobody was signed in (a lockout) or the actor was later deleted
      actor_user_id uuid references users (id) on delete set null,
      action text not null,
      subject text not null,
      detail jsonb not null default '{}'
    );
    create index audit_log_action on audit_log (action, at desc);

    create table demo_requests (
      id uuid primary key default gen_random_uuid(),
      first_name text not null,
      last_name text not null,
      email text not null,
      phone_number text not null,
      company_name text not null,
      comment text,
      created_at timestamptz not null default now()
    );
    create index demo_requests_created on demo_requests (created_at desc);

    -- Every e-mail Locus sends, written before the job that sends it (the job carries its id).
    create table emails (
      id uuid primary key default gen_random_uuid(),
      to_address text not null,
      subject text not null,
      text text not null,
      template text not null,
      status text not null default 'queued' check (status in ('queued', 'sent', 'failed')),
      provider text,
      attempts integer not null default 0,
      last_error text,
      created_at timestamptz not null default now(),
      sent_at timestamptz
    );
    create index emails_queued on emails (created_at) where status = 'queued';
    create index emails_to on emails (lower(to_address), created_at desc);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop table emails;
    drop table demo_requests;
    drop table audit_log;
    drop table one_time_codes;
    drop table auth_sessions;
    alter table teams drop column is_coast_guard;
    drop index users_uscg_pending;
    alter table users
      drop column company_name,
      drop column registration_completed_at,
      drop column uscg_unit_name,
      drop column uscg_status,
      drop column uscg_requested_at;
    -- One account per address again: keep the confirmed one, else the newest.
    delete from users u
      where exists (
        select 1 from users other
        where lower(other.email) = lower(u.email) and other.id <> u.id
          and (other.email_confirmed_at is not null and u.email_confirmed_at is null
               or (other.email_confirmed_at is null) = (u.email_confirmed_at is null)
                  and (other.created_at, other.id) > (u.created_at, u.id))
      );
    drop index users_email;
    drop index users_email_confirmed_unique;
    create unique index users_email_unique on users (lower(email));
  `.execute(db);
}
