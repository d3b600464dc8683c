import { z } from 'zod';

/** Every setting of the worker process. Each one is in `.env.example` with its default. */
export const WorkerConfig = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  DATABASE_URL: z.string().url(),
  DB_POOL_MAX: z.coerce.number().int().positive().default(5),
  REDIS_URL: z.string().url(),
  REDIS_KEY_PREFIX: z.string().default('locus:'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WORKER_CONCURRENCY: z.coerce.number().int().positive().default(5),
  /** Location history of ended sessions is deleted this many days after the end. */
  LOCATION_RETENTION_DAYS: z.coerce.number().int().positive().default(90),
  /** When the daily retention purge runs (cron, UTC). */
  RETENTION_PURGE_CRON: z.string().default('17 3 * * *'),
});
export type WorkerConfig = z.infer<typeof WorkerConfig>;

export function parseWorkerConfig(env: NodeJS.ProcessEnv = process.env): WorkerConfig {
  const result = WorkerConfig.safeParse(env);
  if (!result.success) {
    const problems = result.error.issues.map(
      (issue) => `  ${issue.path.join('.')}: ${issue.message}`,
    );
    throw new Error(`Invalid worker configuration:\n${problems.join('\n')}\nSee .env.example.`);
  }
  return result.data;
}
