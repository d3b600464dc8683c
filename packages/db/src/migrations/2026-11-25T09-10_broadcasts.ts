import { sql, type Kysely } from 'kysely';

// Maintenance broadcasts (issue 22): a banner the platform owner posts to every console. A
// broadcast shows from `created_at` until `ends_at` (when set) or until withdrawn; rows are kept
// after that, as the record of what consoles were told and when.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table broadcasts (
      id uuid primary key default gen_random_uuid(),
      level text not null check (level in ('info', 'warning')),
      text text not null check (char_length(text) between 1 and 280),
      ends_at timestamptz,
      created_by uuid references users (id) on delete set null,
      created_at timestamptz not null default now(),
      withdrawn_at timestamptz,
      withdrawn_by uuid references users (id) on delete set null
    );
    -- What every console asks for: the few broadcasts not withdrawn.
    create index broadcasts_not_withdrawn on broadcasts (created_at desc) where withdrawn_at is null;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table broadcasts`.execute(db);
}
