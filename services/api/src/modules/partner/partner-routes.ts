import { oauthContract, partnerContract } from '@locus/contract';
import type { FastifyInstance } from 'fastify';
import { registerContract } from '../../http/contract-routes';
import { listsOfTeam, numbersOf } from '../call-lists/repo';
import type { TrackingDeps } from '../location/service';
import { withRetryAfter } from '../sms/rate-limit';
import { z } from 'zod';
import { IdempotencyInProgress, partnerLocate } from './locate-service';
import { basicCredentials, issueAccessToken } from './oauth';
import { overAllowance, sendAllowance, type PartnerAuthOptions } from './partner-auth';
import {
  endPartnerSession,
  partnerFixPage,
  partnerSessionView,
  teamSession,
} from './sessions-service';

/** The partner API (issue 15) and the OAuth token endpoint that opens it. */
export async function partnerRoutes(
  app: FastifyInstance,
  deps: TrackingDeps,
  auth: PartnerAuthOptions,
): Promise<void> {
  await app.register(async (scope) => {
    // RFC 6749 asks for a form-encoded token request; JSON stays accepted.
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 8 * 1024 },
      (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
    );
    // The body reaches the handler unparsed, so that a malformed one is RFC 6749's
    // `invalid_request`, which OAuth client libraries read, rather than `validation-failed`.
    registerContract(
      scope,
      { token: { ...oauthContract.token, body: z.unknown() } },
      {
        token: async ({ body }, { request, reply }) => {
          // Token answers are credentials: never cached (RFC 6749 §5.1).
          reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
          const answer = await issueAccessToken(auth, {
            body,
            basic: basicCredentials(request.headers.authorization),
          });
          if (answer.status === 429) {
            sendAllowance(reply, answer.allowance, auth.rateLimit.windowSeconds);
            throw overAllowance(answer.allowance, auth.rateLimit.windowSeconds);
          }
          // RFC 6749 §5.2: a failed client authentication names the scheme.
          if (answer.status === 401) reply.header('www-authenticate', 'Basic realm="locus"');
          return answer;
        },
      },
    );
  });

  const { db } = deps;
  registerContract(app, partnerContract, {
    locate: async ({ body, headers }, { request, reply }) => {
      const partner = await request.partnerAuth.require('locate:write', reply);
      try {
        // The team's text allowance refuses with 429 and Retry-After, as the dashboard's does.
        const answer = await withRetryAfter(reply, () =>
          partnerLocate(deps, partner, body, headers['idempotency-key'], request.ip),
        );
        if (answer.replayed) reply.header('idempotent-replayed', 'true');
        return { status: answer.status, body: answer.body };
      } catch (error) {
        if (error instanceof IdempotencyInProgress)
          reply.header('retry-after', String(error.retryAfterSeconds));
        throw error;
      }
    },
    session: async ({ params }, { request, reply }) => {
      const partner = await request.partnerAuth.require('sessions:read', reply);
      const session = await teamSession(db, partner, params.sessionId);
      return { status: 200, body: await partnerSessionView(db, session) };
    },
    fixes: async ({ params, query }, { request, reply }) => {
      const partner = await request.partnerAuth.require('sessions:read', reply);
      return { status: 200, body: await partnerFixPage(db, partner, params.sessionId, query) };
    },
    end: async ({ params }, { request, reply }) => {
      const partner = await request.partnerAuth.require('locate:write', reply);
      return {
        status: 200,
        body: await endPartnerSession(deps, partner, params.sessionId, request.ip),
      };
    },
    callLists: async (_input, { request, reply }) => {
      const partner = await request.partnerAuth.require('sessions:read', reply);
      const lists = await listsOfTeam(db, partner.teamId);
      const numbers = await numbersOf(
        db,
        lists.map((list) => list.id),
      );
      return {
        status: 200,
        body: {
          callLists: lists.map((list) => ({
            id: list.id,
            callListName: list.name,
            teamId: list.team_id,
            numberCount: list.number_count,
            numbers: numbers
              .filter((entry) => entry.call_list_id === list.id)
              .map((entry) => entry.phone_number),
          })),
        },
      };
    },
  });
}
