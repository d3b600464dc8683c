import { auditContract } from '@locus/contract';
import type { FastifyInstance } from 'fastify';
import { registerContract } from '../../http/contract-routes';
import type { AppDeps } from '../../platform/deps';
import { requireAdmin } from '../auth/guard';
import { auditActors, auditCsv, auditTrail } from './service';

/** The audit trail: team admins read their teams' rows, platform admins every row. */
export function auditRoutes(app: FastifyInstance, { db }: Pick<AppDeps, 'db'>): void {
  registerContract(app, auditContract, {
    list: async ({ query }, { request }) => ({
      status: 200,
      body: await auditTrail(db, await requireAdmin(request), query),
    }),
    exportCsv: async ({ query }, { request, reply }) => {
      const csv = await auditCsv(db, await requireAdmin(request), query);
      const day = new Date().toISOString().slice(0, 10);
      void reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="locus-audit-${day}.csv"`);
      return { status: 200, body: csv };
    },
    actors: async (_input, { request }) => ({
      status: 200,
      body: await auditActors(db, await requireAdmin(request)),
    }),
  });
}
