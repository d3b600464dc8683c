import type { FastifyRequest } from 'fastify';
import { requirePlatformAdmin } from '../modules/auth/guard';
import { ApiError } from './errors';
import { fromNetwork, networkList } from './networks';

/**
 * Who may read `/metrics`: a scraper on one of the configured networks (by default only this
 * host), or a signed-in platform admin. The numbers reveal traffic and load, which is an
 * attacker's reconnaissance, so they are not public.
 */
export function metricsAccess(allowedNetworks: string): (request: FastifyRequest) => Promise<void> {
  const scrapers = networkList(allowedNetworks);
  return async (request) => {
    if (fromNetwork(scrapers, request.ip)) return;
    if (!request.headers.authorization)
      throw new ApiError(403, 'forbidden', 'Metrics are for the platform operators only.');
    await requirePlatformAdmin(request);
  };
}
