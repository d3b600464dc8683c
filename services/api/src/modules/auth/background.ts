import type { FastifyBaseLogger } from 'fastify';

/**
 * Work that runs after the answer was sent (so its duration cannot show in the answer), kept
 * track of so that shutting down waits for it rather than dropping an e-mail half-written.
 */
export class BackgroundTasks {
  private readonly running = new Set<Promise<void>>();

  constructor(private readonly log: FastifyBaseLogger) {}

  run(name: string, task: () => Promise<void>): void {
    const promise: Promise<void> = Promise.resolve()
      .then(task)
      .catch((error: unknown) =>
        this.log.error({ err: error, task: name }, 'background task failed'),
      )
      .finally(() => this.running.delete(promise));
    this.running.add(promise);
  }

  async drain(): Promise<void> {
    while (this.running.size > 0) await Promise.all(this.running);
  }
}
