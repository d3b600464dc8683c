import { register } from 'node:module';
import type { Instrumentation } from '@opentelemetry/instrumentation';
import { tracingState } from './state';

/**
 * OpenTelemetry tracing for one process: HTTP (server and client), Fastify routes, Postgres
 * (`pg`) and Redis (`ioredis`), exported over OTLP/HTTP. Job spans come from `traceJob`.
 *
 * Off unless an endpoint is configured: nothing below is even loaded then, and the only cost
 * left is the `tracingState.on` branch in `jobOriginOptions` and `traceJob`.
 *
 * The application is ESM, so the instrumented packages must be loaded through the
 * import-in-the-middle loader hook registered here: call this before importing any module that
 * imports them (the entry points import the application dynamically, after this).
 */
export interface TracingOptions {
  /** `OTEL_EXPORTER_OTLP_ENDPOINT`: the collector's base URL; `/v1/traces` is added. */
  endpoint: string | undefined;
  /** `OTEL_EXPORTER_OTLP_PROTOCOL`: `http/protobuf` (the OTLP default) or `http/json`. */
  protocol: 'http/protobuf' | 'http/json';
  /** `OTEL_SERVICE_NAME`. */
  serviceName: string;
  /** Instrument Fastify's routes too (the API; the worker serves no routes). */
  fastify: boolean;
}

export interface RunningTracing {
  /** Exports the spans still buffered, then stops. */
  shutdown(): Promise<void>;
}

/** Paths scraped or probed every few seconds: tracing them would bury the requests that matter. */
const untracedPaths = /^\/(?:metrics|api\/v1\/health(?:\/(?:ready|live))?)(?:\?|$)/;

export async function startTracing(options: TracingOptions): Promise<RunningTracing | null> {
  if (!options.endpoint) return null;
  // Intercept only the modules an instrumentation asks for: every other import stays as it is.
  const { createAddHookMessageChannel } = await import('import-in-the-middle');
  const { registerOptions, waitForAllMessagesAcknowledged } = createAddHookMessageChannel();
  register('import-in-the-middle/hook.mjs', import.meta.url, registerOptions);

  const [
    { NodeTracerProvider, BatchSpanProcessor },
    { defaultResource, resourceFromAttributes },
    { ATTR_SERVICE_NAME },
    { registerInstrumentations },
    { HttpInstrumentation },
    { PgInstrumentation },
    { IORedisInstrumentation },
    exporter,
  ] = await Promise.all([
    import('@opentelemetry/sdk-trace-node'),
    import('@opentelemetry/resources'),
    import('@opentelemetry/semantic-conventions'),
    import('@opentelemetry/instrumentation'),
    import('@opentelemetry/instrumentation-http'),
    import('@opentelemetry/instrumentation-pg'),
    import('@opentelemetry/instrumentation-ioredis'),
    options.protocol === 'http/json'
      ? import('@opentelemetry/exporter-trace-otlp-http').then(
          ({ OTLPTraceExporter }) => new OTLPTraceExporter(),
        )
      : import('@opentelemetry/exporter-trace-otlp-proto').then(
          ({ OTLPTraceExporter }) => new OTLPTraceExporter(),
        ),
  ]);
  const provider = new NodeTracerProvider({
    resource: defaultResource().merge(
      resourceFromAttributes({ [ATTR_SERVICE_NAME]: options.serviceName }),
    ),
    spanProcessors: [new BatchSpanProcessor(exporter)],
  });
  // The global tracer provider, AsyncLocalStorage context and W3C trace-context propagation.
  provider.register();
  const instrumentations: Instrumentation[] = [
    new HttpInstrumentation({
      ignoreIncomingRequestHook: (request) => untracedPaths.test(request.url ?? ''),
    }),
    // Only inside a traced operation: BullMQ's polling, heartbeats and the realtime path's
    // Redis calls would otherwise each be a trace of their own, several a second.
    new PgInstrumentation({ requireParentSpan: true }),
    new IORedisInstrumentation({ requireParentSpan: true }),
  ];
  if (options.fastify) {
    const { FastifyOtelInstrumentation } = await import('@fastify/otel');
    instrumentations.push(
      new FastifyOtelInstrumentation({
        // Hooks itself into every Fastify instance as it is created (diagnostics channel).
        registerOnInitialization: true,
        // One span per request and route handler; a span per hook would cost more than it tells.
        instrumentHooks: false,
        ignorePaths: ({ url }) => untracedPaths.test(url),
      }),
    );
  }
  registerInstrumentations({ tracerProvider: provider, instrumentations });
  await waitForAllMessagesAcknowledged();
  tracingState.on = true;
  return {
    shutdown: async () => {
      tracingState.on = false;
      await provider.shutdown();
    },
  };
}
