import { psapContract } from '@locus/contract';
import type { FastifyInstance } from 'fastify';
import { registerContract } from '../../http/contract-routes';
import { ApiError } from '../../http/errors';
import type { AppDeps } from '../../platform/deps';
import { findPsap, searchPsaps } from './repo';

/** SPEC.md §7 Agencies. Public: the agency picker is part of sign-up, before any account exists. */
export function psapRoutes(app: FastifyInstance, { db }: AppDeps): void {
  registerContract(app, psapContract, {
    search: async ({ body }) => ({ status: 200, body: await searchPsaps(db, body.searchTerm, 20) }),
    byId: async ({ params }) => {
      const psap = await findPsap(db, params.id);
      if (!psap) throw new ApiError(404, 'not-found', 'No such agency.');
      return { status: 200, body: psap };
    },
  });
}
