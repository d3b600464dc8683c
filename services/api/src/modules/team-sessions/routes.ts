import { evidenceKeysContract, teamSessionsContract, uploadToS3Contract } from '@locus/contract';
import type { FastifyInstance } from 'fastify';
import { registerContract } from '../../http/contract-routes';
import { requireUser } from '../auth/guard';
import type { TrackingDeps } from '../location/service';
import { listSigningKeys } from './repo';
import { exportSession, holdSession, listSessions, releaseHold, sessionDetail } from './service';

type Deps = Pick<TrackingDeps, 'db' | 'queues' | 'realtime' | 'config'>;

/** /admin/sessions (issue 15): a team's sessions as evidence, and SPEC.md §7 upload-to-s3. */
export function teamSessionRoutes(app: FastifyInstance, deps: Deps): void {
  registerContract(app, teamSessionsContract, {
    list: async ({ params, query }, { request }) => ({
      status: 200,
      body: await listSessions(deps.db, await requireUser(request), params.teamId, query),
    }),
    get: async ({ params }, { request }) => ({
      status: 200,
      body: await sessionDetail(deps, await requireUser(request), params.teamId, params.id),
    }),
    setLegalHold: async ({ params, body }, { request }) => ({
      status: 200,
      body: await holdSession(
        deps,
        { principal: await requireUser(request), ip: request.ip },
        params.teamId,
        params.id,
        body,
      ),
    }),
    releaseLegalHold: async ({ params }, { request }) => ({
      status: 200,
      body: await releaseHold(
        deps,
        { principal: await requireUser(request), ip: request.ip },
        params.teamId,
        params.id,
      ),
    }),
    exportNow: async ({ params }, { request }) => ({
      status: 202,
      body: await exportSession(
        deps,
        { principal: await requireUser(request), ip: request.ip },
        params.teamId,
        params.id,
        { by: 'team-admin' },
      ),
    }),
  });
  registerContract(app, uploadToS3Contract, {
    uploadToS3: async ({ params }, { request }) => ({
      status: 202,
      body: await exportSession(
        deps,
        { principal: await requireUser(request), ip: request.ip },
        params.teamId,
        params.uuid,
        { by: 'team-member' },
      ),
    }),
  });
  registerContract(app, evidenceKeysContract, {
    signingKeys: async () => ({
      status: 200,
      body: {
        keys: (await listSigningKeys(deps.db)).map((row) => ({
          keyId: row.key_id,
          publicKeyPem: row.public_key_pem,
          firstUsedAt: row.first_used_at.toISOString(),
        })),
      },
    }),
  });
}
