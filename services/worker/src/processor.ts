import type { KeyObject } from 'node:crypto';
import type { Database } from '@locus/db';
import type { JobKey, JobPayload } from '@locus/contract';
import type { Logger } from 'pino';
import type { WorkerConfig } from './config';
import type { EmailProvider } from './providers/email';
import type { Job } from 'bullmq';
import type { LocationLookupProvider } from './providers/location';
import type { SmsProvider } from './providers/sms';
import type { ExportStorage, ObjectStorage } from './providers/storage';
import type { WorkerQueues } from './queues';

export interface JobContext {
  db: Database;
  log: Logger;
  config: WorkerConfig;
  email: EmailProvider;
  queues: WorkerQueues;
  lookup: LocationLookupProvider;
  sms: SmsProvider;
  storage: ExportStorage;
  /** Callers' photos and recordings as the API stored them (MEDIA_STORAGE). */
  mediaStorage: ObjectStorage;
  /** The deployment's Ed25519 key that signs evidence files. */
  evidenceKey: KeyObject;
  /** The running job (attempts made, options), when there is one. */
  job?: Pick<Job, 'attemptsMade' | 'opts'>;
}

export type Processor<K extends JobKey> = (
  payload: JobPayload<K>,
  context: JobContext,
) => Promise<unknown>;
