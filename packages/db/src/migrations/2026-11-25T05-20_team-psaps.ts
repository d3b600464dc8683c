import { sql, type Kysely } from 'kysely';

// A team's agencies (SPEC.md §7 Teams: /api/v1/teams/{id}/psap): the PSAPs a team answers for,
// chosen by its admins. And team names unique ignoring case, so that "Demo County 911" and
// "demo county 911" cannot be two teams an admin must tell apart (the exact-case constraint of
// the foundation stays: the seed's upsert names it).
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table team_psaps (
      team_id uuid not null references teams (id) on delete cascade,
      psap_id integer not null references psaps (id) on delete cascade,
      created_at timestamptz not null default now(),
      primary key (team_id, psap_id)
    );
    create index team_psaps_psap on team_psaps (psap_id);
    create unique index teams_name_ci on teams (lower(team_name));
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop index teams_name_ci;
    drop table team_psaps;
  `.execute(db);
}
