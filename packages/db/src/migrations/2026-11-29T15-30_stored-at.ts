import { sql, type Kysely } from 'kysely';

// When Postgres stored each fix and event (issue 15, the partner fixes cursor): `received_at`
// and `created_at` are the API instance's clock when it accepted them, which can be minutes
// before a batch writer that retried through an outage commits them. The cursor passes a gap
// (a seq lost with a dead instance) only once what follows it has been stored for a while, by
// the database's own clock. Existing rows get the migration's time, which is later than the
// truth and so errs on the side of waiting.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table location_fixes add column stored_at timestamptz not null default now();
    alter table session_events add column stored_at timestamptz not null default now();
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table session_events drop column stored_at;
    alter table location_fixes drop column stored_at;
  `.execute(db);
}
