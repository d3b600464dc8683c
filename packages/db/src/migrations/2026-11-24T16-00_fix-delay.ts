import { sql, type Kysely } from 'kysely';

// A fix that waited on the caller's phone (the network was down) is marked delayed on the
// dispatcher's map. The delay is measured on the phone (immune to its clock being wrong) and
// stored, so a replay from Postgres rebuilds the very frame first sent.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table location_fixes
      add column delay_ms integer check (delay_ms >= 0)
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table location_fixes drop column delay_ms`.execute(db);
}
