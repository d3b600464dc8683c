import { caseTransferContract } from '@locus/contract';
import type { FastifyInstance } from 'fastify';
import { registerContract } from '../../http/contract-routes';
import { requireUser } from '../auth/guard';
import {
  checkCaseTransfer,
  checkTransfer,
  confirmTransfer,
  emitLatestLocation,
  joinStream,
  markTransfer,
  offerTransfer,
  transferCandidates,
  transferOffers,
  type CaseTransferDeps,
} from './service';

/** SPEC.md §7 case transfer: thin handlers over `service.ts`. */
export function caseTransferRoutes(app: FastifyInstance, deps: CaseTransferDeps): void {
  registerContract(app, caseTransferContract, {
    transferCandidates: async ({ params }, { request }) => ({
      status: 200,
      body: {
        candidates: await transferCandidates(deps, await requireUser(request), params.uuid),
      },
    }),
    offerTransfer: async ({ params, body }, { request }) => ({
      status: 201,
      body: await offerTransfer(
        deps,
        await requireUser(request),
        params.uuid,
        body.toUserId,
        request.ip,
      ),
    }),
    checkTransfer: async ({ params }, { request }) => ({
      status: 200,
      body: await checkTransfer(deps, await requireUser(request), params.uuid, params.phone),
    }),
    transferOffers: async (_input, { request }) => ({
      status: 200,
      body: { offers: await transferOffers(deps, await requireUser(request)) },
    }),
    markTransfer: async ({ params }, { request }) => ({
      status: 200,
      body: await markTransfer(
        deps,
        await requireUser(request),
        params.uuid,
        params.phone,
        request.ip,
      ),
    }),
    joinStream: async ({ params }, { request }) => ({
      status: 200,
      body: await joinStream(deps, await requireUser(request), params.transferUuid, params.phone),
    }),
    confirmTransfer: async ({ params }, { request }) => ({
      status: 200,
      body: await confirmTransfer(
        deps,
        await requireUser(request),
        params.uuid,
        params.phone,
        params.socketToken,
        request.ip,
      ),
    }),
    checkCaseTransfer: async ({ params }, { request }) => ({
      status: 200,
      body: await checkCaseTransfer(
        deps,
        await requireUser(request),
        params.transferUuid,
        params.phone,
      ),
    }),
    emitLatestLocation: async ({ params }, { request }) => ({
      status: 200,
      body: {
        location: await emitLatestLocation(
          deps,
          await requireUser(request),
          params.transferUuid,
          params.x,
        ),
      },
    }),
  });
}
