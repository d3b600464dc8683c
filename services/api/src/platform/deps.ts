import type { Database } from '@locus/db';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import type { ApiConfig } from '../config';
import type { CaptchaVerifier } from './captcha/captcha';
import type { Queues } from './queues';

/** What the REST modules share: built once per instance in app.ts. */
export interface AppDeps {
  db: Database;
  redis: Redis;
  queues: Queues;
  config: ApiConfig;
  captcha: CaptchaVerifier;
  log: FastifyBaseLogger;
}
