import { jobs, type JobKey } from '@locus/contract';
import { createServer, type Server } from 'node:http';
import type { Logger } from 'pino';
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * Prometheus metrics of one worker process: its jobs' failures and run times, counted where
 * they happen (once, whichever API instance enqueued them), and the process's own figures
 * (event-loop delay, memory). Served on WORKER_METRICS_PORT.
 */
export function createWorkerMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const failures = new Counter({
    name: 'locus_job_failures_total',
    help: 'Failed job attempts, by queue and job; final="true" when no attempt is left',
    labelNames: ['queue', 'job', 'final'] as const,
    registers: [registry],
  });
  // Every series from zero: `increase()` cannot see a counter's first step from nothing to 1.
  for (const key of Object.keys(jobs) as JobKey[])
    for (const final of ['true', 'false'])
      failures.inc({ queue: jobs[key].queue, job: jobs[key].name, final }, 0);
  const runs = new Histogram({
    name: 'locus_job_duration_seconds',
    help: 'Time one job attempt ran, by queue, job and outcome',
    labelNames: ['queue', 'job', 'outcome'] as const,
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
    registers: [registry],
  });
  return {
    registry,
    /** `final`: BullMQ will not try the job again. */
    jobFailed(queue: string, job: string, final: boolean): void {
      failures.inc({ queue, job, final: String(final) });
    },
    jobRan(queue: string, job: string, outcome: 'completed' | 'failed', seconds: number): void {
      runs.observe({ queue, job, outcome }, seconds);
    },
  };
}
export type WorkerMetrics = ReturnType<typeof createWorkerMetrics>;

/**
 * The worker's only HTTP listener: `GET /metrics`, for Prometheus. Keep the port on the
 * cluster's network; it serves nothing else and asks for no credentials.
 */
export async function serveWorkerMetrics(
  metrics: WorkerMetrics,
  port: number,
  log: Logger,
): Promise<Server> {
  const server = createServer((request, response) => {
    if (request.method !== 'GET' || request.url?.split('?')[0] !== '/metrics') {
      response.writeHead(404).end();
      return;
    }
    metrics.registry.metrics().then(
      (text) => response.writeHead(200, { 'content-type': metrics.registry.contentType }).end(text),
      (error: unknown) => {
        log.error({ err: error }, 'metrics not collected');
        response.writeHead(500).end();
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, () => {
      server.off('error', reject);
      resolve();
    });
  });
  // Later errors (out of file descriptors on accept) are logged: a scrape page must not stop the
  // worker.
  server.on('error', (error) => log.error({ err: error }, 'metrics server error'));
  log.info({ port }, 'worker metrics at /metrics');
  return server;
}
