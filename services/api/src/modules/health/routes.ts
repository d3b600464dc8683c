import { healthContract } from '@locus/contract';
import type { FastifyInstance } from 'fastify';
import { registerContract } from '../../http/contract-routes';
import { checkHealth, checkReadiness, type HealthSources } from './service';

export function healthRoutes(app: FastifyInstance, sources: HealthSources): void {
  registerContract(app, healthContract, {
    health: async () => {
      const health = await checkHealth(sources);
      return health.status === 'ok' ? { status: 200, body: health } : { status: 503, body: health };
    },
    ready: async () => {
      const readiness = await checkReadiness(sources);
      return readiness.status === 'ok'
        ? { status: 200, body: readiness }
        : { status: 503, body: readiness };
    },
    // Nothing but this process: a Postgres or Redis outage must never get the pods restarted.
    live: async () => ({ status: 200, body: { status: 'ok', version: sources.version } }),
  });
}
