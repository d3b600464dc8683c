import { existsSync } from 'node:fs';
import { mediaStorageConfigShape, s3ConfigShape } from '@locus/storage';
import { z } from 'zod';

/** `true` or `false`, default false. */
const flag = z
  .enum(['true', 'false'])
  .default('false')
  .transform((value) => value === 'true');

/** An empty value (`S3_ENDPOINT=` in an env file) means unset, not an invalid value. */
const unsetWhenEmpty = <T extends z.ZodTypeAny>(schema: T) =>
  z.preprocess((value) => (value === '' ? undefined : value), schema);

/** Every setting of the worker process. Each one is in `.env.example` with its default. */
export const WorkerConfig = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  DATABASE_URL: z.string().url(),
  DB_POOL_MAX: z.coerce.number().int().positive().default(5),
  REDIS_URL: z.string().url(),
  REDIS_KEY_PREFIX: z.string().default('locus:'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WORKER_CONCURRENCY: z.coerce.number().int().positive().default(5),
  /** Serves Prometheus metrics (job failures, event loop, memory) on this port; unset: none. */
  WORKER_METRICS_PORT: unsetWhenEmpty(z.coerce.number().int().min(1).max(65535).optional()),
  /** OpenTelemetry traces go to this OTLP/HTTP collector (`/v1/traces` is added); unset: off. */
  OTEL_EXPORTER_OTLP_ENDPOINT: unsetWhenEmpty(z.string().url().optional()),
  OTEL_EXPORTER_OTLP_PROTOCOL: z.enum(['http/protobuf', 'http/json']).default('http/protobuf'),
  OTEL_SERVICE_NAME: z.string().min(1).default('locus-worker'),
  /** Location history of ended sessions is deleted this many days after the end. */
  LOCATION_RETENTION_DAYS: z.coerce.number().int().positive().default(90),
  /**
   * The Ed25519 key (PKCS8 PEM) that signs evidence files. Unset: the key in
   * EVIDENCE_SIGNING_KEY_FILE, created on first start outside production.
   */
  EVIDENCE_SIGNING_KEY: unsetWhenEmpty(z.string().optional()),
  EVIDENCE_SIGNING_KEY_FILE: z.string().min(1).default('.data/evidence-signing-key.pem'),
  /**
   * How long one export attempt waits for every seq of the session to reach Postgres (another
   * instance's batch writer may still hold the last fixes) before it fails and retries later.
   */
  EXPORT_SEQ_WAIT_MS: z.coerce.number().int().min(0).default(10_000),
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

  // --- Tracking
  /** Where the caller's link points and Twilio's status callbacks go (the API's public URL). */
  PUBLIC_URL: z.string().url().optional(),
  /** `simulator`: the documented demo numbers; `rapid-sos`: a RapidSOS-style provider. */
  LOOKUP_PROVIDER: z.enum(['simulator', 'rapid-sos']).default('simulator'),
  RAPID_SOS_BASE_URL: z.string().url().optional(),
  RAPID_SOS_CLIENT_ID: z.string().optional(),
  RAPID_SOS_CLIENT_SECRET: z.string().optional(),
  /** The whole provider lookup; keep it below the API's LOOKUP_WAIT_MS. */
  LOOKUP_TIMEOUT_MS: z.coerce.number().int().positive().default(6_000),
  /** `outbox` keeps text messages in the database (dev outbox); `twilio` sends them. */
  SMS_PROVIDER: z.enum(['outbox', 'twilio']).default('outbox'),
  TWILIO_ACCOUNT_SID: z.string().optional(),
  TWILIO_AUTH_TOKEN: z.string().optional(),
  /** A Messaging Service sid (MG…) or a sending number in E.164. */
  TWILIO_FROM: z.string().optional(),
  /** Only for a Twilio-compatible proxy or a test double. */
  TWILIO_API_BASE_URL: z.string().url().optional(),
  /** `local` writes export files under EXPORT_DIR; `s3` puts them in S3_BUCKET. */
  EXPORT_STORAGE: z.enum(['local', 's3']).default('local'),
  EXPORT_DIR: z.string().default('.data/exports'),
  // S3_* (shared with the API, which stores callers' photos): @locus/storage.
  ...s3ConfigShape,
  /** Callers' photos and recordings (issue 19): exported with the session, purged with it. */
  ...mediaStorageConfigShape,

  // --- Partner webhooks (issue 15)
  /**
   * Deliveries may go to private, loopback and link-local addresses (a receiver on this machine,
   * tests). Refused in production: a team's endpoint must not reach into the deployment's network.
   */
  WEBHOOK_ALLOW_PRIVATE_TARGETS: flag,
  /** Deliveries may go to plain http: addresses (tests, a local receiver). Refused in production. */
  WEBHOOK_ALLOW_HTTP: flag,
  /** One attempt's limit, connection to answer: a slow receiver holds one worker slot, no more. */
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
  /** Deliveries sent at once by one worker process. */
  WEBHOOK_CONCURRENCY: z.coerce.number().int().positive().default(20),
  /**
   * Of those, what one endpoint may hold at once: a receiver that answers slowly (or not at all,
   * until WEBHOOK_TIMEOUT_MS) delays its own deliveries, not other endpoints'.
   */
  WEBHOOK_CONCURRENCY_PER_ENDPOINT: z.coerce.number().int().positive().default(4),
  /** Attempts per delivery before it is failed and its endpoint turned off (13: about 23 h). */
  WEBHOOK_MAX_ATTEMPTS: z.coerce.number().int().positive().default(13),
  /** The first retry's wait; each next one doubles it. */
  WEBHOOK_RETRY_BASE_MS: z.coerce.number().int().positive().default(20_000),
  /** How often due deliveries are picked up and enqueued. */
  WEBHOOK_DISPATCH_EVERY_MS: z.coerce.number().int().positive().default(1_000),
});
export type WorkerConfig = z.infer<typeof WorkerConfig>;

export function parseWorkerConfig(env: NodeJS.ProcessEnv = process.env): WorkerConfig {
  const result = WorkerConfig.safeParse(env);
  const problems = result.success
    ? requiredTogether(result.data)
    : result.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
  if (!result.success || problems.length > 0) {
    throw new Error(`Invalid worker configuration:\n${problems.join('\n')}\nSee .env.example.`);
  }
  return result.data;
}

/** Settings that a chosen provider needs. */
function requiredTogether(config: WorkerConfig): string[] {
  const needs: [boolean, (keyof WorkerConfig)[], string][] = [
    [config.EMAIL_PROVIDER === 'smtp', ['SMTP_URL'], 'EMAIL_PROVIDER=smtp'],
    [
      config.LOOKUP_PROVIDER === 'rapid-sos',
      ['RAPID_SOS_BASE_URL', 'RAPID_SOS_CLIENT_ID', 'RAPID_SOS_CLIENT_SECRET'],
      'LOOKUP_PROVIDER=rapid-sos',
    ],
    [
      config.SMS_PROVIDER === 'twilio',
      ['TWILIO_ACCOUNT_SID', 'TWILIO_AUTH_TOKEN', 'TWILIO_FROM'],
      'SMS_PROVIDER=twilio',
    ],
    [config.EXPORT_STORAGE === 's3', ['S3_BUCKET'], 'EXPORT_STORAGE=s3'],
    [config.MEDIA_STORAGE === 's3', ['S3_BUCKET'], 'MEDIA_STORAGE=s3'],
    // A key id without its secret (or the reverse) is a typo, not a wish for the default chain.
    [config.S3_ACCESS_KEY_ID !== undefined, ['S3_SECRET_ACCESS_KEY'], 'S3_ACCESS_KEY_ID'],
    [config.S3_SECRET_ACCESS_KEY !== undefined, ['S3_ACCESS_KEY_ID'], 'S3_SECRET_ACCESS_KEY'],
  ];
  const production = config.NODE_ENV === 'production';
  const neverInProduction = (['WEBHOOK_ALLOW_PRIVATE_TARGETS', 'WEBHOOK_ALLOW_HTTP'] as const)
    .filter((key) => production && config[key])
    .map((key) => `  ${key}: must be false in production`);
  return [
    ...needs.flatMap(([chosen, keys, why]) =>
      chosen
        ? keys.filter((key) => !config[key]).map((key) => `  ${key}: required with ${why}`)
        : [],
    ),
    ...neverInProduction,
    // Outside production the worker creates the key file; in production it must be given.
    ...(production && !config.EVIDENCE_SIGNING_KEY && !existsSync(config.EVIDENCE_SIGNING_KEY_FILE)
      ? [
          `  EVIDENCE_SIGNING_KEY: required in production (or a key at EVIDENCE_SIGNING_KEY_FILE, ${config.EVIDENCE_SIGNING_KEY_FILE})`,
        ]
      : []),
  ];
}
