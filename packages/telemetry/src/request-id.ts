import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';

/**
 * The HTTP request a piece of work serves, carried through its async calls so that a job it
 * enqueues names it without every caller passing it along.
 */
const requestIds = new AsyncLocalStorage<string>();

// Letters, digits and `._:-`, as load balancers and tracing headers write ids: nothing that
// could forge a log line, and short enough to keep in every job.
const SANE_REQUEST_ID = /^[\w.:-]{1,128}$/;

/** An incoming `x-request-id` when it is sane (one value, short, plain), else a new UUID. */
export function requestIdFrom(header: string | string[] | undefined): string {
  return typeof header === 'string' && SANE_REQUEST_ID.test(header) ? header : randomUUID();
}

/** Runs `work` (and everything it starts) as part of request `id`. */
export function withRequestId<T>(id: string, work: () => T): T {
  return requestIds.run(id, work);
}

/** The id of the HTTP request being served, if any. */
export function currentRequestId(): string | undefined {
  return requestIds.getStore();
}
