// `npm run bench -- --only metrics`: every metrics call (issue 13) against one team with a
// million sessions over two years, over the last 30 days and over two years.
//   --sessions N   sessions to load (default 1,000,000)
//   --runs N       timed requests per call and range (default 20), after 2 warm-ups
import { createDb, createPool, DEMO_PASSWORD, localDate, addDays } from '@locus/db';
import { mkdirSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { runsDir } from '../paths';
import { killAllInstances, startInstance, type Instance } from '../servers';
import { metricsCalls, pathOf, type MetricsCall } from './calls';
import {
  analyze,
  benchPlan,
  benchTeam,
  createBenchDatabase,
  createBenchTeam,
  dropBenchDatabase,
  loadHistory,
} from './load';
import {
  percentile,
  resultsTable,
  writeMetricsReport,
  type CallResult,
  type Explained,
  type MetricsBenchReport,
} from './report';
import { onlyNames } from '../only';

const databaseName = 'locus_metrics_bench';
const targetP95Ms = 150;
const warmUps = 2;
/**
 * How many of the slowest calls get their statements explained, per range: a miss over 30 days
 * is a query that reads more than its range, one over 2 years may only need a rollup.
 */
const explainAtMost = 3;
/**
 * Timed requests of one call and range stop after this long (with 5 at least): a call that
 * takes seconds misses the target by far, and 20 of them would only lengthen the run.
 */
const budgetMs = 90_000;
const fewestRuns = 5;

/** True when `--only` names this bench (it cannot be combined with the realtime pipelines). */
export function isMetricsRun(argv: string[]): boolean {
  return onlyNames(argv, 'metrics');
}

const log = (message: string): void => console.log(`[metrics] ${message}`);
const errorText = (error: unknown): string =>
  error instanceof Error ? error.message.split('\n')[0]! : String(error);

async function signIn(baseUrl: string, email: string): Promise<string> {
  const response = await fetch(`${baseUrl}/api/v1/auth/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: DEMO_PASSWORD, staySignedIn: false }),
  });
  const body = (await response.json()) as { token?: string; message?: string };
  if (response.status !== 200 || !body.token)
    throw new Error(`sign-in as ${email} answered ${response.status}: ${body.message ?? ''}`);
  return body.token;
}

/** One request, timed from sending it to the last byte of the answer. */
async function timedGet(
  url: string,
  token: string,
): Promise<{ status: number; ms: number; body: string }> {
  const started = performance.now();
  const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  const body = await response.text();
  return { status: response.status, ms: performance.now() - started, body };
}

function messageOf(body: string): string {
  try {
    const parsed = JSON.parse(body) as { message?: string; code?: string };
    return parsed.message ?? parsed.code ?? body.slice(0, 120);
  } catch {
    return body.slice(0, 120);
  }
}

interface Range {
  name: string;
  from: string;
  to: string;
}

async function measure(
  baseUrl: string,
  call: MetricsCall,
  range: Range,
  context: {
    teamId: string;
    userId: string;
    adminToken: string;
    platformToken: string;
    runs: number;
  },
): Promise<CallResult> {
  const url = `${baseUrl}${pathOf(call, context, range)}`;
  const token = call.kind === 'platform' ? context.platformToken : context.adminToken;
  const result: CallResult = {
    call: call.name,
    label: call.label,
    kind: call.kind,
    range: range.name,
    from: range.from,
    to: range.to,
    status: 200,
    error: null,
    p50Ms: null,
    p95Ms: null,
    minMs: null,
    maxMs: null,
    samplesMs: [],
    pass: false,
  };
  let timed = 0;
  for (let i = 0; i < warmUps + context.runs; i += 1) {
    const answer = await timedGet(url, token);
    if (answer.status !== 200) {
      result.status = answer.status;
      result.error = messageOf(answer.body);
      return result;
    }
    if (i < warmUps) continue;
    result.samplesMs.push(Math.round(answer.ms * 10) / 10);
    timed += answer.ms;
    if (timed > budgetMs && result.samplesMs.length >= fewestRuns) break;
  }
  const sorted = [...result.samplesMs].sort((a, b) => a - b);
  result.p50Ms = percentile(sorted, 50);
  result.p95Ms = percentile(sorted, 95);
  result.minMs = sorted[0] ?? null;
  result.maxMs = sorted.at(-1) ?? null;
  result.pass = result.p95Ms !== null && result.p95Ms <= targetP95Ms;
  return result;
}

/**
 * Runs the call's query in this process with every statement captured, then EXPLAIN ANALYZE of
 * the slowest one with its parameters.
 */
async function explainCall(
  url: string,
  call: MetricsCall,
  range: Range,
  scope: { teamId: string; userId: string; timeZone: string },
): Promise<Explained> {
  const { db, pool } = createDb({ connectionString: url, maxConnections: 4 });
  const statements: { text: string; values: unknown[]; ms: number }[] = [];
  pool.on('connect', (client) => {
    const original = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args) => {
      const [text, values] = args;
      const started = performance.now();
      const result = original(...args);
      if (typeof text === 'string' && result instanceof Promise) {
        result.then(
          () =>
            statements.push({
              text,
              values: (values as unknown[]) ?? [],
              ms: performance.now() - started,
            }),
          () => undefined,
        );
      }
      return result;
    };
  });
  try {
    await call.run(db, {
      teamId: scope.teamId,
      ...(call.kind === 'user' ? { userId: scope.userId } : {}),
      timeZone: call.kind === 'platform' ? 'UTC' : scope.timeZone,
      from: range.from,
      to: range.to,
    });
    const slowest = statements.reduce((a, b) => (b.ms > a.ms ? b : a));
    const explained = await pool.query<{ 'QUERY PLAN': string }>(
      `explain (analyze, buffers) ${slowest.text}`,
      slowest.values,
    );
    return {
      call: call.name,
      range: range.name,
      statementMs: slowest.ms,
      statements: statements.length,
      sql: slowest.text,
      plan: explained.rows.map((row) => row['QUERY PLAN']),
    };
  } finally {
    await db.destroy();
  }
}

async function tableSizes(url: string): Promise<Record<string, number>> {
  const pool = createPool({ connectionString: url, maxConnections: 1 });
  try {
    const { rows } = await pool.query<{ name: string; mb: number }>(`
      select relname as name, round(pg_total_relation_size(oid) / 1e6)::int as mb
      from pg_class
      where relname in ('tracking_sessions', 'session_callers', 'location_lookups', 'sms_messages',
        'location_fixes', 'chat_messages', 'case_transfers', 'audit_log') and relkind = 'r'`);
    return Object.fromEntries(rows.map((row) => [row.name, row.mb]));
  } finally {
    await pool.end();
  }
}

async function postgresVersion(url: string): Promise<string> {
  const pool = createPool({ connectionString: url, maxConnections: 1 });
  try {
    const { rows } = await pool.query<{ v: string }>(
      `select current_setting('server_version') as v`,
    );
    return `PostgreSQL ${rows[0]?.v ?? '?'}`;
  } finally {
    await pool.end();
  }
}

/** The dispatcher with the most sessions: the user calls count theirs. */
async function busiestUser(
  url: string,
  teamId: string,
): Promise<{ id: string; email: string; sessions: number }> {
  const pool = createPool({ connectionString: url, maxConnections: 1 });
  try {
    const { rows } = await pool.query<{ id: string; email: string; sessions: number }>(
      `select u.id, u.email, count(*)::int as sessions
       from tracking_sessions s join users u on u.id = s.created_by
       where s.team_id = $1 group by u.id, u.email order by 3 desc limit 1`,
      [teamId],
    );
    if (!rows[0]) throw new Error('the bench team has no sessions');
    return rows[0];
  } finally {
    await pool.end();
  }
}

export async function runMetricsBench(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      only: { type: 'string' },
      sessions: { type: 'string', default: '1000000' },
      runs: { type: 'string', default: '20' },
    },
  });
  const sessions = Number(values.sessions);
  const runs = Number(values.runs);
  if (!Number.isInteger(sessions) || sessions < 1 || !Number.isInteger(runs) || runs < 1) {
    console.error('--sessions and --runs must be positive integers');
    return 2;
  }
  const baseUrl = process.env.DATABASE_URL;
  const redisUrl = process.env.REDIS_URL;
  if (!baseUrl || !redisUrl) {
    console.error(
      'DATABASE_URL and REDIS_URL must be set: run it as `npm run bench -- --only metrics`',
    );
    return 2;
  }

  const startedAt = new Date().toISOString();
  const runId = `${startedAt.slice(0, 19).replace(/[-:T]/g, '')}-${process.pid}-metrics`;
  const logDir = join(runsDir, runId);
  mkdirSync(logDir, { recursive: true });
  const [load = 0] = loadavg();
  log(`run ${runId}; load average ${load.toFixed(2)}; API log in ${logDir}`);
  if (load > 0.5)
    log(`load average is ${load.toFixed(2)}: other work on these cores skews latency`);

  process.on('exit', killAllInstances);
  let api: Instance | null = null;
  const notes: string[] = [];
  try {
    log(`creating database ${databaseName} (schema and demo seed)`);
    const url = await createBenchDatabase(baseUrl, databaseName);
    const { db } = createDb({ connectionString: url, maxConnections: 2 });
    const team = await createBenchTeam(db).finally(() => db.destroy());
    const now = Date.now();
    const plan = benchPlan(team, sessions, now);
    log(
      `loading ${sessions.toLocaleString('en-US')} sessions, ${plan.firstDay} to ${plan.lastDay}`,
    );
    const loaded = await loadHistory(url, plan, (counts, seconds) =>
      log(
        `  ${counts.tracking_sessions.toLocaleString('en-US')} sessions after ${seconds.toFixed(0)} s`,
      ),
    );
    log(
      `loaded in ${loaded.seconds.toFixed(1)} s (generating ${loaded.generatingSeconds.toFixed(1)} s, ` +
        `waiting for Postgres ${loaded.waitingSeconds.toFixed(1)} s): ` +
        Object.entries(loaded.counts)
          .map(([table, n]) => `${table} ${n.toLocaleString('en-US')}`)
          .join(', '),
    );
    const analyzeSeconds = await analyze(url);
    log(`VACUUM ANALYZE in ${analyzeSeconds.toFixed(1)} s`);
    const sizesMb = await tableSizes(url);
    const user = await busiestUser(url, team.teamId);

    api = await startInstance({
      name: 'metrics-api',
      entry: 'services/api/src/main.ts',
      env: {
        DATABASE_URL: url,
        REDIS_URL: redisUrl,
        LOG_LEVEL: 'warn',
        NODE_ENV: 'production',
        MFA_ENCRYPTION_KEY: 'bench-only-mfa-encryption-key',
        // Production refuses the default media URL secret (issue 19).
        MEDIA_URL_SECRET: 'bench-only-media-url-secret',
        REDIS_KEY_PREFIX: `bench:${runId}:`,
      },
      logDir,
    });
    const apiUrl = `http://127.0.0.1:${api.port}`;
    log(`API up on :${api.port}`);
    const adminToken = await signIn(apiUrl, benchTeam.adminEmail);
    const platformToken = await signIn(apiUrl, 'owner@locus.test');

    const today = localDate(benchTeam.timeZone, now);
    const ranges: Range[] = [
      { name: '30 days', from: addDays(today, -29), to: today },
      { name: '2 years', from: addDays(today, -730), to: today },
    ];
    const results: CallResult[] = [];
    for (const range of ranges) {
      for (const call of metricsCalls) {
        // The platform's days are UTC days; its "today" may be a day ahead of Chicago's.
        const callRange =
          call.kind === 'platform'
            ? (() => {
                const utcToday = localDate('UTC', now);
                const days = range.name === '30 days' ? 29 : 730;
                return { ...range, from: addDays(utcToday, -days), to: utcToday };
              })()
            : range;
        const result = await measure(apiUrl, call, callRange, {
          teamId: team.teamId,
          userId: user.id,
          adminToken,
          platformToken,
          runs,
        });
        results.push(result);
        log(
          `${call.label.padEnd(48)} ${range.name.padEnd(8)} ` +
            (result.error
              ? `ERROR ${result.status}: ${result.error}`
              : `p50 ${result.p50Ms} ms, p95 ${result.p95Ms} ms ${result.pass ? 'PASS' : 'MISS'}`),
        );
      }
    }

    const explains: Explained[] = [];
    const worst = ranges.flatMap((range) =>
      results
        .filter((r) => r.range === range.name && r.error === null && !r.pass)
        .sort((a, b) => (b.p95Ms ?? 0) - (a.p95Ms ?? 0))
        .slice(0, explainAtMost),
    );
    for (const r of worst) {
      const call = metricsCalls.find((c) => c.name === r.call)!;
      try {
        explains.push(
          await explainCall(
            url,
            call,
            { name: r.range, from: r.from, to: r.to },
            {
              teamId: team.teamId,
              userId: user.id,
              timeZone: benchTeam.timeZone,
            },
          ),
        );
      } catch (error) {
        notes.push(`EXPLAIN of ${r.call} over ${r.range} failed: ${errorText(error)}`);
      }
    }
    const failing = results.filter((r) => r.error !== null);
    if (failing.length > 0)
      notes.push(
        `Not measured (the API answered an error): ${[...new Set(failing.map((r) => `${r.call} (${r.status} ${r.error})`))].join('; ')}.`,
      );

    const cpuList = cpus();
    const report: MetricsBenchReport = {
      bench: 'metrics',
      runId,
      startedAt,
      durationSeconds: Math.round((Date.now() - Date.parse(startedAt)) / 1000),
      machine: {
        cpus: cpuList.length,
        cpuModel: cpuList[0]?.model.trim() ?? 'unknown',
        node: process.version,
        postgres: await postgresVersion(url),
        loadAverage: Math.round(load * 100) / 100,
      },
      settings: {
        sessions,
        runs,
        warmUps,
        targetP95Ms,
        team: benchTeam.name,
        timeZone: benchTeam.timeZone,
        userCallsFor: `${user.email} (${user.sessions.toLocaleString('en-US')} sessions)`,
      },
      load: {
        seconds: Math.round(loaded.seconds * 10) / 10,
        generatingSeconds: Math.round(loaded.generatingSeconds * 10) / 10,
        waitingSeconds: Math.round(loaded.waitingSeconds * 10) / 10,
        counts: loaded.counts,
        foreignKeysChecked: loaded.foreignKeysChecked,
        analyzeSeconds: Math.round(analyzeSeconds * 10) / 10,
        sizesMb,
      },
      results,
      explains,
      notes,
    };
    const written = writeMetricsReport(report);
    console.log(`\n${resultsTable(report).join('\n')}\n`);
    log(`wrote ${written.join(', ')}`);
    return failing.length > 0 ? 1 : 0;
  } catch (error) {
    console.error(`[metrics] failed: ${error instanceof Error ? error.stack : String(error)}`);
    return 1;
  } finally {
    await api?.stop();
    await dropBenchDatabase(baseUrl, databaseName).catch(() => undefined);
  }
}
