import { startTracing } from '@locus/telemetry/tracing';
import { parseConfig } from './config';

let config;
try {
  config = parseConfig();
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}

// Tracing hooks the modules it instruments as they load: the app is imported only after it.
const tracing = await startTracing({
  endpoint: config.OTEL_EXPORTER_OTLP_ENDPOINT,
  protocol: config.OTEL_EXPORTER_OTLP_PROTOCOL,
  serviceName: config.OTEL_SERVICE_NAME,
  fastify: true,
});
const { buildApp } = await import('./app');
const app = await buildApp(config);
await app.listen({ host: config.HOST, port: config.PORT });

let stopping = false;
async function shutdown(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  const drainMs = config!.SHUTDOWN_DRAIN_MS;
  const force = setTimeout(
    () => {
      app.log.error('shutdown took too long; exiting');
      process.exit(1);
    },
    drainMs + config!.SHUTDOWN_TIMEOUT_MS + 5_000,
  );
  force.unref();
  if (drainMs > 0) {
    // Still serving, health 503 `draining`: the load balancer takes this instance out of
    // rotation (and moves its websockets) before anything is refused.
    app.log.info({ signal, drainMs }, 'draining: leaving the load balancer’s rotation');
    app.locus.startDraining();
    await new Promise((resolve) => setTimeout(resolve, drainMs));
  }
  app.log.info({ signal }, 'shutting down: finishing in-flight work');
  try {
    await app.close();
  } catch (error) {
    app.log.error({ err: error }, 'shutdown: closing failed');
    process.exit(1);
  }
  // An unreachable trace collector loses the last spans, not the clean exit.
  await tracing?.shutdown().catch((error: unknown) => {
    app.log.warn({ err: error }, 'shutdown: the last traces could not be sent');
  });
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
