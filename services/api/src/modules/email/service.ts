import type { Database } from '@locus/db';
import type { FastifyBaseLogger } from 'fastify';
import type { Queues } from '../../platform/queues';
import { insertEmail } from './repo';
import type { RenderedEmail } from './templates';

/**
 * The API never sends e-mail itself: it writes the row (inside the caller's transaction, so an
 * e-mail exists exactly when what it announces does) and, once that is committed, enqueues
 * `email.send` with the row's id as `jobId`. If enqueueing fails, the worker's sweeper finds
 * the row still queued and enqueues it later.
 */
export class Mailer {
  constructor(
    private readonly queues: Queues,
    private readonly log: FastifyBaseLogger,
  ) {}

  write(db: Database, email: RenderedEmail): Promise<string> {
    return insertEmail(db, email);
  }

  async enqueue(ids: readonly string[]): Promise<void> {
    await Promise.all(
      ids.map((emailId) =>
        this.queues.enqueue('emailSend', { emailId }, emailId).catch((error: unknown) => {
          this.log.warn({ err: error, emailId }, 'e-mail not enqueued; the sweeper will retry');
        }),
      ),
    );
  }

  /** Writes and enqueues one e-mail outside any transaction. */
  async send(db: Database, email: RenderedEmail): Promise<void> {
    await this.enqueue([await this.write(db, email)]);
  }
}
