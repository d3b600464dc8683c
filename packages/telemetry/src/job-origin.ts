import {
  context,
  propagation,
  SpanKind,
  SpanStatusCode,
  trace,
  type TextMapGetter,
} from '@opentelemetry/api';
import { currentRequestId } from './request-id';
import { tracingState } from './state';

/**
 * Where a job came from, stored in the job's `opts.telemetry.metadata` (BullMQ keeps that string
 * with the job, retries included, and never looks into it while its own telemetry is off). It
 * is a W3C trace-context carrier plus the request id, so BullMQ's own OpenTelemetry integration
 * would read the same field the same way. Payloads stay as the contract says.
 */
export interface JobOrigin {
  requestId?: string;
  traceparent?: string;
  tracestate?: string;
}

/** The options to merge into a `queue.add`: the current request id and trace context. */
export function jobOriginOptions(): { telemetry: { metadata: string } } | undefined {
  const origin: JobOrigin = {};
  const requestId = currentRequestId();
  if (requestId) origin.requestId = requestId;
  if (tracingState.on) propagation.inject(context.active(), origin);
  if (!origin.requestId && !origin.traceparent) return undefined;
  return { telemetry: { metadata: JSON.stringify(origin) } };
}

const plainString = (value: unknown) => (typeof value === 'string' ? value : undefined);

/** Reads a job's origin back; anything malformed reads as no origin. */
export function jobOrigin(metadata: string | undefined): JobOrigin {
  if (!metadata) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(metadata);
  } catch {
    return {};
  }
  if (typeof parsed !== 'object' || parsed === null) return {};
  const fields = parsed as Record<string, unknown>;
  const origin: JobOrigin = {};
  for (const key of ['requestId', 'traceparent', 'tracestate'] as const) {
    const value = plainString(fields[key]);
    if (value) origin[key] = value;
  }
  return origin;
}

const originGetter: TextMapGetter<JobOrigin> = {
  keys: (carrier) => Object.keys(carrier),
  get: (carrier, key) => (key === 'traceparent' || key === 'tracestate' ? carrier[key] : undefined),
};

export interface TracedJob {
  id?: string;
  name: string;
  queueName: string;
  attemptsMade: number;
}

/**
 * Runs a job's processor, as a consumer span that continues the trace of the request that
 * enqueued it when tracing is on; with tracing off, it only calls `run`.
 */
export async function traceJob<T>(
  job: TracedJob,
  origin: JobOrigin,
  run: () => Promise<T>,
): Promise<T> {
  if (!tracingState.on) return run();
  const parent = propagation.extract(context.active(), origin, originGetter);
  const span = trace.getTracer('@locus/telemetry').startSpan(
    `process ${job.queueName}`,
    {
      kind: SpanKind.CONSUMER,
      attributes: {
        'messaging.system': 'bullmq',
        'messaging.operation.type': 'process',
        'messaging.destination.name': job.queueName,
        'messaging.message.id': job.id ?? '',
        'locus.job.name': job.name,
        'locus.job.attempt': job.attemptsMade + 1,
        ...(origin.requestId ? { 'locus.request_id': origin.requestId } : {}),
      },
    },
    parent,
  );
  try {
    return await context.with(trace.setSpan(parent, span), run);
  } catch (error) {
    span.recordException(error instanceof Error ? error : String(error));
    span.setStatus({ code: SpanStatusCode.ERROR });
    throw error;
  } finally {
    span.end();
  }
}
