import { fileURLToPath } from 'node:url';
import { z } from 'zod';

const bool = z
  .enum(['true', 'false', '1', '0'])
  .transform((value) => value === 'true' || value === '1');
const int = (fallback: number) => z.coerce.number().int().positive().default(fallback);

/** Every setting of the API process. Each one is in `.env.example` with its default. */
export const ApiConfig = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  HOST: z.string().default('0.0.0.0'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  PUBLIC_URL: z.string().url().optional(),
  DATABASE_URL: z.string().url(),
  DB_POOL_MAX: int(10),
  REDIS_URL: z.string().url(),
  /** Namespaces every Redis key, channel and queue, so several deployments can share a Redis. */
  REDIS_KEY_PREFIX: z.string().default('locus:'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** The queue board at /admin/queues. Off until sign-in can restrict it to platform admins. */
  QUEUE_BOARD_ENABLED: bool.default('false'),
  /** The built web app served on the same origin; the API alone runs without it. */
  WEB_DIST_DIR: z.string().default(fileURLToPath(new URL('../../../web/dist', import.meta.url))),
  FIX_BATCH_MAX_ROWS: int(500),
  FIX_BATCH_MAX_DELAY_MS: int(100),
  /** Events per session kept in Redis for fast replay; older ones are replayed from Postgres. */
  REPLAY_STREAM_MAX_LEN: int(5000),
  /** Session keys in Redis expire this long after the session's last event. */
  SESSION_REDIS_TTL_SECONDS: int(7 * 24 * 3600),
  /** Above this many unsent bytes, a dispatcher socket gets only the latest event per caller. */
  DISPATCHER_HIGH_WATER_BYTES: int(64 * 1024),
  /** Sustained events per second from one caller socket, and the burst it may send at once (a page resending what it queued while offline). */
  CALLER_MAX_EVENTS_PER_SECOND: int(10),
  CALLER_EVENT_BURST: int(60),
  DISPATCHER_TOKEN_TTL_SECONDS: int(12 * 3600),
  CALLER_TOKEN_TTL_SECONDS: int(24 * 3600),
  SHUTDOWN_TIMEOUT_MS: int(10_000),
});
export type ApiConfig = z.infer<typeof ApiConfig>;

export function parseConfig(env: NodeJS.ProcessEnv = process.env): ApiConfig {
  const result = ApiConfig.safeParse(env);
  if (!result.success) {
    const problems = result.error.issues.map(
      (issue) => `  ${issue.path.join('.')}: ${issue.message}`,
    );
    throw new Error(`Invalid API configuration:\n${problems.join('\n')}\nSee .env.example.`);
  }
  return result.data;
}
