import type { Database } from '@locus/db';
import type { JobKey, JobPayload } from '@locus/contract';
import type { Logger } from 'pino';
import type { WorkerConfig } from './config';
import type { EmailProvider } from './providers/email';
import type { WorkerQueues } from './queues';

export interface JobContext {
  db: Database;
  log: Logger;
  config: WorkerConfig;
  email: EmailProvider;
  queues: WorkerQueues;
}

export type Processor<K extends JobKey> = (
  payload: JobPayload<K>,
  context: JobContext,
) => Promise<unknown>;
