import { trackingContract } from '@locus/contract';
import type { FastifyInstance } from 'fastify';
import { registerContract } from '../../http/contract-routes';
import { requireUser } from '../auth/guard';
import { PracticeCallers } from '../practice/simulator';
import { withRetryAfter } from '../sms/rate-limit';
import {
  activeSession,
  askLocationByText,
  callerLink,
  completeSession,
  latestLocation,
  requestAdditionalLocations,
  requestLocation,
  requestMultipleLocations,
  requestTextMessage,
  startStream,
  type TrackingDeps,
} from './service';

/** SPEC.md §7 "Location": thin handlers over `service.ts`. */
export function locationRoutes(app: FastifyInstance, tracking: TrackingDeps): void {
  // Practice mode (issue 14): scripted callers, played by this instance over its own caller
  // socket; they stop before the sockets close on shutdown.
  const practice = new PracticeCallers({
    log: app.log,
    paceMs: tracking.config.PRACTICE_PACE_MS,
    address: () => app.server.address(),
  });
  app.addHook('preClose', async () => practice.close());
  const deps: TrackingDeps = { ...tracking, practice };
  registerContract(app, trackingContract, {
    startStream: async ({ body }, { request }) => ({
      status: 200,
      body: await startStream(
        deps,
        await requireUser(request),
        body.phoneNumber,
        request.ip,
        body.practice === true,
      ),
    }),
    requestLocation: async ({ body }, { request }) => ({
      status: 200,
      body: await requestLocation(
        deps,
        await requireUser(request),
        body.connectionRequestUuid,
        request.ip,
      ),
    }),
    // The routes that text: a refusal by the SMS limits carries Retry-After.
    requestTextMessage: async ({ body }, { request, reply }) => ({
      status: 200,
      body: await withRetryAfter(reply, async () =>
        requestTextMessage(
          deps,
          await requireUser(request),
          body.connectionRequestUuid,
          body.language,
          request.ip,
        ),
      ),
    }),
    askLocationByText: async ({ body }, { request, reply }) => ({
      status: 200,
      body: await withRetryAfter(reply, async () =>
        askLocationByText(
          deps,
          await requireUser(request),
          body.connectionRequestUuid,
          body.callerId,
          request.ip,
        ),
      ),
    }),
    requestMultipleLocations: async ({ body }, { request, reply }) => ({
      status: 200,
      body: await withRetryAfter(reply, async () =>
        requestMultipleLocations(
          deps,
          await requireUser(request),
          body.connectionRequestUuid,
          body.callList,
          body.language,
          request.ip,
        ),
      ),
    }),
    requestAdditionalLocations: async ({ body }, { request, reply }) => ({
      status: 200,
      body: await withRetryAfter(reply, async () =>
        requestAdditionalLocations(
          deps,
          await requireUser(request),
          body.connectionRequestUuid,
          body.newNumbers,
          body.language,
          request.ip,
        ),
      ),
    }),
    setDateTimeCompleted: async ({ params }, { request }) => ({
      status: 200,
      body: await completeSession(deps, await requireUser(request), params.uuid, request.ip),
    }),
    activeSession: async (_input, { request }) => ({
      status: 200,
      body: { session: await activeSession(deps, await requireUser(request)) },
    }),
    latestLocation: async ({ params }, { request }) => ({
      status: 200,
      body: { location: await latestLocation(deps, await requireUser(request), params.id) },
    }),
    callerLink: async ({ query }) => ({ status: 200, body: await callerLink(deps, query.token) }),
  });
}
