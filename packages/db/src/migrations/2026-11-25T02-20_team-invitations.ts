import { sql, type Kysely } from 'kysely';

// Group registration never adds an existing account to a team by itself: its owner gets an
// invitation by e-mail and joins by following the link. The code is random, stored hashed,
// single-use and expiring, like one_time_codes, but carries the team and role it grants.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table team_invitations (
      id uuid primary key default gen_random_uuid(),
      code_hash bytea not null unique,
      team_id uuid not null references teams (id) on delete cascade,
      user_id uuid not null references users (id) on delete cascade,
      role text not null check (role in ('admin', 'member')),
      invited_by uuid references users (id) on delete set null,
      created_at timestamptz not null default now(),
      expires_at timestamptz not null,
      accepted_at timestamptz
    );
    create index team_invitations_user on team_invitations (user_id);
    create index team_invitations_expires on team_invitations (expires_at);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table team_invitations`.execute(db);
}
