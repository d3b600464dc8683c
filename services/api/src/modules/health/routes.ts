import { healthContract } from '@locus/contract';
import type { Database } from '@locus/db';
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { registerContract } from '../../http/contract-routes';
import { checkHealth } from './service';

export function healthRoutes(
  app: FastifyInstance,
  deps: { db: Database; redis: Redis; version: string },
): void {
  registerContract(app, healthContract, {
    health: async () => {
      const health = await checkHealth(deps.db, deps.redis, deps.version);
      return health.status === 'ok' ? { status: 200, body: health } : { status: 503, body: health };
    },
  });
}
