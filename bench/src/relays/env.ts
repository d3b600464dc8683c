import { createServer, type Server } from 'node:http';

/** The same variables the Locus API reads, so the orchestrator starts all three alike. */
export function relayEnv(): { port: number; redisUrl: string; prefix: string } {
  const port = Number(process.env.PORT);
  const redisUrl = process.env.REDIS_URL;
  if (!Number.isInteger(port) || port <= 0 || !redisUrl) {
    throw new Error('relay needs PORT and REDIS_URL');
  }
  return { port, redisUrl, prefix: process.env.REDIS_KEY_PREFIX ?? 'bench:' };
}

/** An HTTP server whose only route is the health check the orchestrator polls. */
export function healthOnlyServer(): Server {
  return createServer((request, response) => {
    const ok = request.url === '/api/v1/health';
    response.writeHead(ok ? 200 : 404).end();
  });
}

export function stopOnSignal(close: () => Promise<unknown>): void {
  const stop = (): void => {
    void close().finally(() => process.exit(0));
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}
