import { sql } from 'kysely';
import type { Database } from '../connection';
import { generateHistory, type HistoryMember, type HistoryPlan } from '../history/generate';
import { insertHistory, zeroCounts, type HistoryCounts } from '../history/insert';
import { Random } from '../history/random';
import { addDays, localDate, localDay } from '../history/zoned';
import { demoNewDispatchers, demoUsers, type DemoTeamName } from './demo-data';

/** How many days of history the demo teams get, ending yesterday in each team's zone. */
export const demoHistoryDays = 90;

/**
 * Each demo team's history (issue 13): Demo County 911 (enterprise) is the one its metrics
 * screens show; Neighbouring County and Locus's own staff get a little, so that the platform
 * screen compares teams.
 */
const demoHistoryPlans: Record<
  DemoTeamName,
  Pick<HistoryPlan, 'sessions' | 'startVolume' | 'fixesPerCaller'> &
    Pick<HistoryPlan['team'], 'centre' | 'areaCodes' | 'network'> & {
      /** A 911 centre works shifts round the clock; Locus's staff locate during office hours. */
      hours: 'shifts' | 'office';
    }
> = {
  'Demo County 911': {
    sessions: 2_600,
    startVolume: 0.85,
    fixesPerCaller: [2, 4],
    centre: [41.525, -88.082],
    areaCodes: ['815', '779'],
    network: '198.51.100',
    hours: 'shifts',
  },
  'Neighbouring County': {
    sessions: 650,
    startVolume: 0.9,
    fixesPerCaller: [2, 4],
    centre: [39.65, -104.99],
    areaCodes: ['303', '720'],
    network: '203.0.113',
    hours: 'shifts',
  },
  Locus: {
    sessions: 30,
    fixesPerCaller: [1, 3],
    centre: [38.8977, -77.0365],
    areaCodes: ['571'],
    network: '192.0.2',
    hours: 'office',
  },
};

const documented = new Set(demoUsers.map((user) => user.email));
const newDispatchers = new Set<string>(demoNewDispatchers);

/**
 * The members who have history: confirmed accounts, each from the day they registered (the
 * documented accounts all along), except the new dispatchers whose guided tour must still show.
 */
async function historyMembers(
  db: Database,
  teamId: string,
  seed: string,
  hours: 'shifts' | 'office',
): Promise<HistoryMember[]> {
  const rows = await db
    .selectFrom('team_members as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select(['u.id', 'u.email', 'u.first_name', 'u.last_name', 'u.created_at', 'm.role'])
    .where('m.team_id', '=', teamId)
    .where('u.email_confirmed_at', 'is not', null)
    .orderBy('u.email')
    .execute();
  let alternate = 0;
  return rows
    .filter((row) => !newDispatchers.has(row.email))
    .map((row) => {
      const random = new Random(`${seed}:${row.email}`);
      const isAdmin = row.role === 'admin';
      // The documented dispatchers work opposite shifts, so either finds history of their own.
      const shift: HistoryMember['shift'] =
        hours === 'office' || isAdmin
          ? 'office'
          : row.email.startsWith('dispatcher2@')
            ? 'night'
            : row.email.startsWith('dispatcher@')
              ? 'day'
              : alternate++ % 2 === 0
                ? 'day'
                : 'night';
      return {
        userId: row.id,
        email: row.email,
        firstName: row.first_name,
        lastName: row.last_name,
        since: documented.has(row.email) ? null : row.created_at.getTime(),
        weight: isAdmin ? 0.2 : random.between(0.6, 1.4),
        shift,
      };
    });
}

/**
 * Adds `demoHistoryDays` of history to each demo team that has none yet (no session that
 * started before today): running the seed again adds nothing. Everything it adds is over
 * before today began in the team's zone.
 */
export async function seedDemoHistory(
  db: Database,
  now: number = Date.now(),
): Promise<HistoryCounts> {
  const counts = zeroCounts();
  const teams = await db
    .selectFrom('teams')
    .select(['id', 'team_name', 'time_zone', 'lookup_active'])
    .where('team_name', 'in', Object.keys(demoHistoryPlans))
    .orderBy('team_name')
    .execute();
  for (const team of teams) {
    const shape = demoHistoryPlans[team.team_name as DemoTeamName];
    const today = localDate(team.time_zone, now);
    const startOfToday = localDay(team.time_zone, today).start;
    const { rows } = await sql<{ has: boolean }>`
      select exists (
        select 1 from tracking_sessions
        where team_id = ${team.id} and created_at < ${new Date(startOfToday)}
      ) as has`.execute(db);
    if (rows[0]?.has) continue;
    const seed = `demo:${team.team_name}`;
    const members = await historyMembers(db, team.id, seed, shape.hours);
    if (members.length === 0) continue;
    const written = await insertHistory(
      db,
      generateHistory({
        seed,
        team: {
          id: team.id,
          name: team.team_name,
          timeZone: team.time_zone,
          members,
          centre: shape.centre,
          areaCodes: shape.areaCodes,
          lookup: team.lookup_active,
          network: shape.network,
        },
        firstDay: addDays(today, -demoHistoryDays),
        lastDay: addDays(today, -1),
        sessions: shape.sessions,
        ...(shape.startVolume === undefined ? {} : { startVolume: shape.startVolume }),
        fixesPerCaller: shape.fixesPerCaller,
        notAfter: startOfToday,
        batchSize: 2_000,
      }),
    );
    for (const table of Object.keys(counts) as (keyof HistoryCounts)[])
      counts[table] += written[table];
  }
  return counts;
}
