import { healthContract } from '@locus/contract';
import type { FastifyInstance } from 'fastify';
import { registerContract } from '../../http/contract-routes';
import { checkHealth, type HealthSources } from './service';

export function healthRoutes(app: FastifyInstance, sources: HealthSources): void {
  registerContract(app, healthContract, {
    health: async () => {
      const health = await checkHealth(sources);
      return health.status === 'ok' ? { status: 200, body: health } : { status: 503, body: health };
    },
  });
}
