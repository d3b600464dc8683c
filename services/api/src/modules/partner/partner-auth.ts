import type { PartnerScope } from '@locus/contract';
import type { Database } from '@locus/db';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import { ApiError } from '../../http/errors';
import { recordAudit } from '../audit/repo';
import { hashToken } from '../sessions/tokens';
import { findKeyByAccessToken, findKeyBySecret, touchKey, type PresentedKey } from './keys-repo';
import { countPartnerRequest, type RateLimitState } from './rate-limit';
import { looksLikeAccessToken, looksLikeApiKey } from './secrets';

/** Who is calling a partner route: a key of one team, with what it may do. */
export interface PartnerPrincipal {
  keyId: string;
  teamId: string;
  scopes: PartnerScope[];
}

export interface PartnerAuthOptions {
  db: Database;
  redis: Redis;
  redisPrefix: string;
  rateLimit: { limit: number; windowSeconds: number };
}

/** RFC 6750 §3: a 401 says which scheme would do. */
const bearerChallenge = 'Bearer realm="locus"';

/** The IETF draft's `RateLimit-*` headers, on every answer to a known key. */
export function sendAllowance(
  reply: FastifyReply,
  allowance: RateLimitState,
  windowSeconds: number,
): void {
  reply.header('ratelimit-limit', String(allowance.limit));
  reply.header('ratelimit-remaining', String(allowance.remaining));
  reply.header('ratelimit-reset', String(allowance.resetSeconds));
  reply.header('ratelimit-policy', `${allowance.limit};w=${windowSeconds}`);
  if (!allowance.allowed) reply.header('retry-after', String(allowance.resetSeconds));
}

export function overAllowance(allowance: RateLimitState, windowSeconds: number): ApiError {
  return new ApiError(
    429,
    'rate-limited',
    `This key has made ${allowance.limit} requests in ${windowSeconds} s. ` +
      `Try again in ${allowance.resetSeconds} s.`,
  );
}

const unknownKey = () =>
  new ApiError(401, 'unauthorized', 'Send a valid API key or access token as a Bearer token.');

async function present(db: Database, credential: string): Promise<PresentedKey | undefined> {
  if (looksLikeApiKey(credential)) return findKeyBySecret(db, hashToken(credential));
  if (looksLikeAccessToken(credential)) return findKeyByAccessToken(db, hashToken(credential));
  return undefined;
}

/**
 * The partner credential of a request (issue 15), resolved once: the key or token, then the
 * key's request allowance (every answer carries the `RateLimit-*` headers of the IETF draft; over
 * it, 429 with `Retry-After`), then its state and scope. A revoked key, a missing scope or a team
 * without the level is audited on the team's trail; an expired one only logged.
 */
export class PartnerAuth {
  private resolved: Promise<PartnerPrincipal> | undefined;

  constructor(
    private readonly options: PartnerAuthOptions,
    private readonly request: FastifyRequest,
  ) {}

  require(scope: PartnerScope, reply: FastifyReply): Promise<PartnerPrincipal> {
    this.resolved ??= this.resolve(scope, reply);
    return this.resolved;
  }

  private async resolve(scope: PartnerScope, reply: FastifyReply): Promise<PartnerPrincipal> {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(this.request.headers.authorization ?? '');
    if (!match?.[1]) {
      reply.header('www-authenticate', bearerChallenge);
      throw unknownKey();
    }
    const { db, redis, redisPrefix, rateLimit } = this.options;
    const key = await present(db, match[1]);
    if (!key) {
      this.request.log.warn({ route: this.request.routeOptions.url }, 'unknown partner credential');
      reply.header('www-authenticate', bearerChallenge);
      throw unknownKey();
    }
    const allowance = await countPartnerRequest(redis, redisPrefix, key.keyId, rateLimit);
    sendAllowance(reply, allowance, rateLimit.windowSeconds);
    if (!allowance.allowed) throw overAllowance(allowance, rateLimit.windowSeconds);
    const refusal = key.revoked
      ? new ApiError(401, 'unauthorized', 'This API key has been revoked.')
      : key.expired
        ? new ApiError(401, 'unauthorized', 'This API key or access token has expired.')
        : !key.teamUsable
          ? new ApiError(
              403,
              'forbidden',
              "The key's team no longer has the enterprise level, or is deactivated.",
            )
          : !key.scopes.includes(scope)
            ? new ApiError(403, 'forbidden', `This key does not have the \`${scope}\` scope.`)
            : undefined;
    if (refusal?.status === 401) reply.header('www-authenticate', bearerChallenge);
    // An expired token is routine (OAuth clients fetch a new one when told): logged, not audited.
    if (refusal && key.expired && !key.revoked) {
      this.request.log.info({ keyId: key.keyId }, 'expired partner credential');
      throw refusal;
    }
    if (refusal) {
      await recordAudit(db, {
        actorUserId: null,
        action: 'api-key.refused',
        subject: key.prefix,
        detail: {
          keyId: key.keyId,
          reason: refusal.message,
          route: `${this.request.method} ${this.request.routeOptions.url ?? ''}`,
        },
        teamId: key.teamId,
        ip: this.request.ip,
      });
      throw refusal;
    }
    if (key.staleUse) await touchKey(db, key.keyId);
    return { keyId: key.keyId, teamId: key.teamId, scopes: key.scopes as PartnerScope[] };
  }
}

declare module 'fastify' {
  interface FastifyRequest {
    partnerAuth: PartnerAuth;
  }
}

/** Attaches `request.partnerAuth`; only partner routes ever ask it anything. */
export function installPartnerAuth(app: FastifyInstance, options: PartnerAuthOptions): void {
  app.decorateRequest('partnerAuth', null as unknown as PartnerAuth);
  app.addHook('onRequest', async (request) => {
    request.partnerAuth = new PartnerAuth(options, request);
  });
}
