import { sql, type Kysely } from 'kysely';

// Issue 13: a team's time zone is a setting its admins choose; metrics cut days and months in
// it. Most customers are in the US East, so a new team starts in America/New_York rather than
// UTC. Teams still on the old default never chose 'UTC' (nothing could set it), so they move
// too; the platform owner's own team is Locus itself, not a 911 centre, and keeps UTC.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table teams alter column time_zone set default 'America/New_York';
    update teams set time_zone = 'America/New_York'
      where time_zone = 'UTC' and not is_platform_owner;
  `.execute(db);
}

// The moved teams cannot be told from those that chose New York since; they keep it.
export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table teams alter column time_zone set default 'UTC'`.execute(db);
}
