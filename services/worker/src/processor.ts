import type { Database } from '@locus/db';
import type { JobKey, JobPayload } from '@locus/contract';
import type { Logger } from 'pino';

export interface JobContext {
  db: Database;
  log: Logger;
}

export type Processor<K extends JobKey> = (
  payload: JobPayload<K>,
  context: JobContext,
) => Promise<unknown>;
