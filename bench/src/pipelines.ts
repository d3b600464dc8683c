import { randomUUID } from 'node:crypto';
import type { SessionCredentials, WireName } from './generator/messages';
import { postgresPids } from './stores';

/** What the orchestrator needs to know to bench one pipeline. */
export interface Pipeline {
  name: WireName;
  title: string;
  /** Server entry point, relative to the repo root; started twice (instances A and B). */
  entry: string;
  env(runId: string): Record<string, string>;
  /** Serves Prometheus metrics at /metrics worth reading around each step. */
  hasMetrics: boolean;
  /** Has the REST API whose start-stream is timed during the largest latency step. */
  probesStartStream: boolean;
  prepare(sessions: number): Promise<Prepared>;
}

export interface Prepared {
  sessions: SessionCredentials[];
  /** How many of the fixes the bench sent ended up stored, where the pipeline stores any. */
  countPersisted?(): Promise<number>;
  /** Processes of the Postgres the pipeline writes to, where it writes to one. */
  postgresPids?(): Promise<number[]>;
  close(): Promise<void>;
}

const sessionCreationConcurrency = 20;

function requireEnv(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set (run through \`npm run bench\`)`);
  return value;
}

async function mapBounded<T>(
  count: number,
  limit: number,
  task: (i: number) => Promise<T>,
): Promise<T[]> {
  const results: T[] = new Array<T>(count);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < count) {
      const i = next++;
      results[i] = await task(i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, count) }, worker));
  return results;
}

const locus: Pipeline = {
  name: 'locus',
  title: 'Locus',
  entry: 'services/api/src/main.ts',
  hasMetrics: true,
  probesStartStream: true,
  env: (runId) => ({
    DATABASE_URL: requireEnv('DATABASE_URL'),
    REDIS_URL: requireEnv('REDIS_URL'),
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
    MFA_ENCRYPTION_KEY: 'bench-only-mfa-encryption-key',
    // Production refuses the default media URL secret (issue 19).
    MEDIA_URL_SECRET: 'bench-only-media-url-secret',
    REDIS_KEY_PREFIX: `bench:${runId}:`,
  }),
  prepare: async (count) => {
    // Imported here so the relays can be benched while the API is still being written.
    const [{ openSession }, { createDb, seedDemo }] = await Promise.all([
      import('@locus/api'),
      import('@locus/db'),
    ]);
    const { db, pool } = createDb({ connectionString: requireEnv('DATABASE_URL') });
    // The demo teams and users: the start-stream probe signs in as the demo dispatcher.
    await seedDemo(db, 'development');
    const sessions = await mapBounded(count, sessionCreationConcurrency, async () => {
      const opened = await openSession(db, {
        callers: [{ phoneNumber: '+12025550100', language: 'en' }],
      });
      const caller = opened.callers[0];
      if (!caller) throw new Error('openSession returned no caller');
      return {
        sessionId: opened.sessionId,
        dispatcherToken: opened.dispatcherToken,
        callerToken: caller.token,
      };
    });
    return {
      sessions,
      countPersisted: async () => {
        const { rows } = await pool.query<{ n: number }>(
          'select count(*)::int as n from location_fixes where session_id = any($1::uuid[])',
          [sessions.map((s) => s.sessionId)],
        );
        return rows[0]?.n ?? 0;
      },
      postgresPids: async () => {
        const { rows } = await pool.query<{ pid: number }>('select pg_backend_pid() as pid');
        return rows[0] ? postgresPids(rows[0].pid) : [];
      },
      close: () => db.destroy(),
    };
  },
};

/** Relays keep no state: a session is just an id both ends agree on. */
async function relaySessions(count: number): Promise<Prepared> {
  const sessions = Array.from({ length: count }, () => {
    const id = randomUUID();
    return { sessionId: id, dispatcherToken: id, callerToken: id };
  });
  return { sessions, close: async () => undefined };
}

const relayEnv = (name: string) => (runId: string) => ({
  REDIS_URL: requireEnv('REDIS_URL'),
  NODE_ENV: 'production',
  REDIS_KEY_PREFIX: `bench:${runId}:${name}:`,
});

const reference: Pipeline = {
  name: 'reference',
  title: 'Reference relay (ws + ioredis)',
  entry: 'bench/src/relays/reference.ts',
  hasMetrics: false,
  probesStartStream: false,
  env: relayEnv('reference'),
  prepare: relaySessions,
};

const peer: Pipeline = {
  name: 'peer',
  title: 'Peer relay (Socket.IO + Redis adapter)',
  entry: 'bench/src/relays/peer.ts',
  hasMetrics: false,
  probesStartStream: false,
  env: relayEnv('peer'),
  prepare: relaySessions,
};

export const pipelines: Record<WireName, Pipeline> = { locus, reference, peer };
