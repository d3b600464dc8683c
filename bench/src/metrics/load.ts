import {
  addDays,
  createDb,
  createPool,
  DEMO_PASSWORD,
  generateHistory,
  hashPassword,
  insertHistoryBatch,
  localDate,
  localDay,
  migrateToLatest,
  Random,
  seedDemo,
  type Database,
  type HistoryCounts,
  type HistoryMember,
  type HistoryPlan,
} from '@locus/db';

/** The team the bench fills: a large enterprise centre, one admin and its dispatchers. */
export const benchTeam = {
  name: 'Bench Metro 911',
  timeZone: 'America/Chicago',
  adminEmail: 'admin@bench-metro.test',
  dispatchers: 59,
} as const;

const firstNames = [
  'Alex',
  'Blake',
  'Casey',
  'Drew',
  'Emery',
  'Finley',
  'Gray',
  'Harper',
  'Indy',
  'Jules',
  'Kendall',
  'Logan',
  'Morgan',
  'Noel',
  'Oakley',
  'Parker',
  'Quinn',
  'Reese',
  'Sage',
  'Taylor',
];
const lastNames = [
  'Abbott',
  'Baker',
  'Chen',
  'Diaz',
  'Ellis',
  'Foster',
  'Garcia',
  'Hughes',
  'Iyer',
  'Jensen',
  'Kowalski',
  'Lopez',
  'Mensah',
  'Novak',
  'Ortiz',
  'Patel',
  'Quint',
  'Rivera',
  'Singh',
  'Tran',
];

/**
 * A database of its own in the bench's Postgres (the infra CLI's private one), dropped first if
 * an earlier run left it: the demo seed (for the platform admin) and the schema, nothing else.
 */
export async function createBenchDatabase(baseUrl: string, name: string): Promise<string> {
  const url = new URL(baseUrl);
  const target = new URL(baseUrl);
  target.pathname = `/${name}`;
  url.pathname = '/postgres';
  const admin = createPool({ connectionString: url.toString(), maxConnections: 1 });
  try {
    await admin.query(`drop database if exists "${name}" with (force)`);
    await admin.query(`create database "${name}"`);
  } finally {
    await admin.end();
  }
  const { db } = createDb({ connectionString: target.toString(), maxConnections: 2 });
  try {
    await migrateToLatest(db);
    await seedDemo(db, 'development');
  } finally {
    await db.destroy();
  }
  return target.toString();
}

export async function dropBenchDatabase(baseUrl: string, name: string): Promise<void> {
  const url = new URL(baseUrl);
  url.pathname = '/postgres';
  const admin = createPool({ connectionString: url.toString(), maxConnections: 1 });
  try {
    await admin.query(`drop database if exists "${name}" with (force)`);
  } finally {
    await admin.end();
  }
}

export interface BenchTeam {
  teamId: string;
  members: HistoryMember[];
}

/**
 * The bench team: enterprise, in Chicago, an admin (who signs in to call the metrics) and the
 * dispatchers, each with a weight and a shift, on the team from the start of the history.
 */
export async function createBenchTeam(db: Database): Promise<BenchTeam> {
  const team = await db
    .insertInto('teams')
    .values({
      team_name: benchTeam.name,
      permission_levels: ['premiere', 'enterprise'],
      time_zone: benchTeam.timeZone,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  const random = new Random('bench:members');
  const people = [
    { email: benchTeam.adminEmail, firstName: 'Avery', lastName: 'Admin', role: 'admin' as const },
    ...Array.from({ length: benchTeam.dispatchers }, (_, i) => ({
      email: `dispatcher${String(i + 1).padStart(2, '0')}@bench-metro.test`,
      firstName: firstNames[i % firstNames.length]!,
      lastName: lastNames[(i + Math.floor(i / firstNames.length) * 3) % lastNames.length]!,
      role: 'member' as const,
    })),
  ];
  const users = await db
    .insertInto('users')
    .values(
      people.map((person) => ({
        email: person.email,
        first_name: person.firstName,
        last_name: person.lastName,
        password_hash: passwordHash,
        email_confirmed_at: new Date(),
        registration_completed_at: new Date(),
        has_seen_walkthrough: true,
      })),
    )
    .returning(['id', 'email'])
    .execute();
  const idOf = new Map(users.map((user) => [user.email, user.id]));
  await db
    .insertInto('team_members')
    .values(
      people.map((person) => ({
        team_id: team.id,
        user_id: idOf.get(person.email)!,
        role: person.role,
      })),
    )
    .execute();
  const members = people.map((person, i): HistoryMember => ({
    userId: idOf.get(person.email)!,
    email: person.email,
    firstName: person.firstName,
    lastName: person.lastName,
    since: null,
    weight: person.role === 'admin' ? 0.2 : random.between(0.6, 1.4),
    shift: person.role === 'admin' ? 'office' : i % 3 === 0 ? 'night' : 'day',
  }));
  return { teamId: team.id, members };
}

/** The bench's history plan: `sessions` over the two years before today, growing by half. */
export function benchPlan(team: BenchTeam, sessions: number, now: number): HistoryPlan {
  const today = localDate(benchTeam.timeZone, now);
  return {
    seed: 'bench:metrics',
    team: {
      id: team.teamId,
      name: benchTeam.name,
      timeZone: benchTeam.timeZone,
      members: team.members,
      centre: [41.8781, -87.6298],
      areaCodes: ['312', '773', '872'],
      lookup: true,
      network: '198.51.100',
    },
    firstDay: addDays(today, -730),
    lastDay: addDays(today, -1),
    sessions,
    startVolume: 0.65,
    fixesPerCaller: [1, 2],
    notAfter: localDay(benchTeam.timeZone, today).start,
    batchSize: 5_000,
  };
}

/**
 * Generates and writes the history. Two connections write while this process generates the
 * next batch; they skip the foreign-key triggers (`session_replication_role = replica`, the
 * bench database's owner is a superuser): the generator builds every reference itself, and
 * checking a few million of them would only slow the load, not the queries measured.
 */
export async function loadHistory(
  url: string,
  plan: HistoryPlan,
  progress: (counts: HistoryCounts, seconds: number) => void,
): Promise<{
  counts: HistoryCounts;
  seconds: number;
  /** Of which: generating rows in this process, and waiting for Postgres to take a batch. */
  generatingSeconds: number;
  waitingSeconds: number;
  foreignKeysChecked: boolean;
}> {
  const { db, pool } = createDb({ connectionString: url, maxConnections: 2 });
  let foreignKeysChecked = false;
  try {
    try {
      await pool.query('set session_replication_role = replica');
    } catch {
      foreignKeysChecked = true;
    }
    if (!foreignKeysChecked)
      pool.on('connect', (client) => {
        void client.query('set session_replication_role = replica');
      });
    // The pool's first connection was set above; the second is set as it connects.
    const started = performance.now();
    const counts: HistoryCounts = {
      tracking_sessions: 0,
      session_callers: 0,
      location_lookups: 0,
      sms_messages: 0,
      location_fixes: 0,
      chat_messages: 0,
      case_transfers: 0,
      audit_log: 0,
    };
    const lanes: Promise<unknown>[] = [Promise.resolve(), Promise.resolve()];
    let failure: unknown = null;
    let next = 0;
    let lastReport = started;
    let generating = 0;
    let waiting = 0;
    const batches = generateHistory(plan);
    for (;;) {
      const generated = performance.now();
      const { value: batch, done } = batches.next();
      generating += performance.now() - generated;
      if (done) break;
      const lane = next++ % lanes.length;
      const waited = performance.now();
      await lanes[lane];
      waiting += performance.now() - waited;
      if (failure !== null) throw failure;
      lanes[lane] = insertHistoryBatch(db, batch, counts).catch((error: unknown) => {
        failure ??= error;
      });
      // Let the lanes send their statements before the next batch is generated.
      await new Promise((resolve) => setImmediate(resolve));
      if (performance.now() - lastReport > 10_000) {
        lastReport = performance.now();
        progress(counts, (lastReport - started) / 1000);
      }
    }
    const waited = performance.now();
    await Promise.all(lanes);
    waiting += performance.now() - waited;
    if (failure !== null) throw failure;
    return {
      counts,
      seconds: (performance.now() - started) / 1000,
      generatingSeconds: generating / 1000,
      waitingSeconds: waiting / 1000,
      foreignKeysChecked,
    };
  } finally {
    await db.destroy();
  }
}

/** ANALYZE after the load, as autovacuum would do eventually: the planner needs the numbers. */
export async function analyze(url: string): Promise<number> {
  const pool = createPool({ connectionString: url, maxConnections: 1 });
  const started = performance.now();
  try {
    await pool.query('analyze');
    // The load's rows are all visible: a VACUUM sets the visibility map so that index-only
    // scans need not visit the heap, as on a database that has been running for a while.
    await pool.query(
      'vacuum (analyze) tracking_sessions, session_callers, sms_messages, location_fixes, location_lookups, chat_messages, case_transfers, audit_log',
    );
  } finally {
    await pool.end();
  }
  return (performance.now() - started) / 1000;
}
