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
  /** When never-confirmable duplicate accounts, dead sessions and old codes are deleted (cron, UTC). */
  ACCOUNTS_PURGE_CRON: z.string().default('41 * * * *'),
  /** `outbox` keeps e-mails in the database (nothing leaves the machine); `smtp` sends them. */
  EMAIL_PROVIDER: z.enum(['outbox', 'smtp']).default('outbox'),
  /** smtp(s)://user:password@host:port, required with EMAIL_PROVIDER=smtp. */
  SMTP_URL: z
    .string()
    .url()
    .refine((url) => /^smtps?:/.test(url), 'must be smtp:// or smtps://')
    .optional(),
  EMAIL_FROM: z.string().min(3).default('Locus <no-reply@locus.test>'),
  /** An e-mail still queued this long after it was written is enqueued again. */
  EMAIL_SWEEP_AFTER_SECONDS: z.coerce.number().int().positive().default(300),
  /** An e-mail not sent within this many hours is marked failed and no longer retried. */
  EMAIL_GIVE_UP_HOURS: z.coerce.number().int().positive().default(24),
});
export type WorkerConfig = z.infer<typeof WorkerConfig>;

export function parseWorkerConfig(env: NodeJS.ProcessEnv = process.env): WorkerConfig {
  const result = WorkerConfig.safeParse(env);
  const problems = result.success
    ? result.data.EMAIL_PROVIDER === 'smtp' && !result.data.SMTP_URL
      ? ['  SMTP_URL: required with EMAIL_PROVIDER=smtp']
      : []
    : result.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
  if (!result.success || problems.length > 0) {
    throw new Error(`Invalid worker configuration:\n${problems.join('\n')}\nSee .env.example.`);
  }
  return result.data;
}
