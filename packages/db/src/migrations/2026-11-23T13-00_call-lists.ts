import { sql, type Kysely } from 'kysely';

// Team call lists (SPEC.md §7 "Call lists"): named lists of numbers a dispatcher can locate by,
// and team users attached to a list (their own phone number joins the list when it is deployed).
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table call_lists (
      id uuid primary key default gen_random_uuid(),
      team_id uuid not null references teams (id) on delete cascade,
      name text not null check (char_length(name) between 1 and 100),
      created_at timestamptz not null default now()
    );
    -- One name per team, ignoring case; also the index for a team's lists.
    create unique index call_lists_team_name on call_lists (team_id, lower(name));

    create table call_list_numbers (
      call_list_id uuid not null references call_lists (id) on delete cascade,
      phone_number text not null check (phone_number ~ '^\\+[1-9][0-9]{1,14}$'),
      label text check (char_length(label) <= 100),
      created_at timestamptz not null default now(),
      primary key (call_list_id, phone_number)
    );

    create table call_list_users (
      call_list_id uuid not null references call_lists (id) on delete cascade,
      user_id uuid not null references users (id) on delete cascade,
      created_at timestamptz not null default now(),
      primary key (call_list_id, user_id)
    );
    create index call_list_users_user on call_list_users (user_id);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop table call_list_users;
    drop table call_list_numbers;
    drop table call_lists;
  `.execute(db);
}
