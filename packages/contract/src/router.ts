import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import {
  demoRequestsContract,
  devOutboxContract,
  psapContract,
  publicConfigContract,
  uscgContract,
  usersContract,
} from './accounts';
import { authContract } from './auth';
import { authSessionsContract } from './auth-sessions';
import { mfaContract } from './mfa';
import { passkeysContract } from './passkeys';
import { callListsContract } from './call-lists';
import { teamsContract } from './teams';
import { usersAdminContract } from './users-admin';
import { teamMembersContract } from './team-members';
import { trackingContract } from './tracking';
import { verificationContract } from './verification';
import { auditContract } from './audit';
import { platformJobsContract, platformStatusContract } from './platform';
import { broadcastsContract } from './broadcasts';
import { caseTransferContract } from './case-transfer';
import { chatContract } from './chat';
import { mediaContract } from './media';
import { metricsContract } from './metrics';
import { trainingContract } from './training';
import { overwatchContract } from './overwatch';
import { partnerContract } from './partner-api';
import { partnerWebhooksContract, teamWebhooksContract } from './webhooks';
import { apiKeysContract, oauthContract } from './partner-keys';
import { evidenceKeysContract, teamSessionsContract, uploadToS3Contract } from './team-sessions';
import { ErrorBody } from './errors';
import { publicRoute } from './route-security';

const c = initContract();

const Check = z.object({ ok: z.boolean(), latencyMs: z.number(), error: z.string().optional() });
/** Whether any worker wrote its heartbeat recently (texts, e-mails and lookups need one). */
const WorkerCheck = z.object({
  ok: z.boolean(),
  /** Since the newest heartbeat of any worker; null when none is on record. */
  lastHeartbeatMsAgo: z.number().nullable(),
});
/** This instance's fixes and events accepted but not yet in Postgres (the Redis stream holds them meanwhile). */
const PersistenceCheck = z.object({
  ok: z.boolean(),
  /** How long the oldest of them has waited. */
  lagMs: z.number(),
  pendingRows: z.number().int(),
});

/**
 * `status` is `unavailable` (503) only when this instance cannot serve (Postgres or Redis), so a
 * load balancer never takes every instance out for a worker outage; `worker` and `persistence`
 * tell operators the rest. `draining` (503): the instance is stopping and still serves, so that
 * load balancers take it out of rotation before it refuses anything (`SHUTDOWN_DRAIN_MS`).
 */
export const Health = z.object({
  status: z.enum(['ok', 'unavailable', 'draining']),
  checks: z.object({
    postgres: Check,
    redis: Check,
    worker: WorkerCheck,
    persistence: PersistenceCheck,
  }),
  version: z.string(),
});
export type Health = z.infer<typeof Health>;

/** Whether this instance can serve: it reaches Postgres and Redis (Kubernetes readiness). */
export const Readiness = z.object({
  status: z.enum(['ok', 'unavailable', 'draining']),
  checks: z.object({ postgres: Check, redis: Check }),
});
export type Readiness = z.infer<typeof Readiness>;

/** The process answers requests (Kubernetes liveness); it checks nothing else. */
export const Liveness = z.object({ status: z.literal('ok'), version: z.string() });

export const healthContract = c.router({
  health: {
    method: 'GET',
    path: '/api/v1/health',
    ...publicRoute,
    summary:
      "For load balancers: Postgres and Redis; also the workers' heartbeat and the fix-persistence lag",
    description:
      '503 `unavailable` only while this instance cannot reach Postgres or Redis, and 503 ' +
      '`draining` while it is stopping (it still serves: take it out of rotation); `worker` and ' +
      '`persistence` inform operators and never fail it. No sign-in.',
    responses: { 200: Health, 503: Health },
  },
  ready: {
    method: 'GET',
    path: '/api/v1/health/ready',
    ...publicRoute,
    summary: 'Kubernetes readiness: 503 while this instance cannot reach Postgres or Redis',
    description:
      'Take the instance out of rotation while it fails; it keeps running (see `/health/live`). ' +
      'Also 503 (`draining`) while the instance shuts down. No sign-in.',
    responses: { 200: Readiness, 503: Readiness },
  },
  live: {
    method: 'GET',
    path: '/api/v1/health/live',
    ...publicRoute,
    summary: 'Kubernetes liveness: 200 while the process serves requests',
    description:
      'Touches neither Postgres nor Redis, so that an outage of either never restarts the pods ' +
      '(restarting would not bring the database back). No sign-in.',
    responses: { 200: Liveness },
  },
});

export const contract = c.router(
  {
    health: healthContract,
    auth: authContract,
    mfa: mfaContract,
    passkeys: passkeysContract,
    authSessions: authSessionsContract,
    psap: psapContract,
    users: usersContract,
    uscg: uscgContract,
    demoRequests: demoRequestsContract,
    devOutbox: devOutboxContract,
    publicConfig: publicConfigContract,
    tracking: trackingContract,
    caseTransfer: caseTransferContract,
    chat: chatContract,
    media: mediaContract,
    callLists: callListsContract,
    verification: verificationContract,
    audit: auditContract,
    teams: teamsContract,
    usersAdmin: usersAdminContract,
    teamMembers: teamMembersContract,
    platformStatus: platformStatusContract,
    platformJobs: platformJobsContract,
    broadcasts: broadcastsContract,
    metrics: metricsContract,
    training: trainingContract,
    overwatch: overwatchContract,
    apiKeys: apiKeysContract,
    oauth: oauthContract,
    partner: partnerContract,
    partnerWebhooks: partnerWebhooksContract,
    teamWebhooks: teamWebhooksContract,
    teamSessions: teamSessionsContract,
    uploadToS3: uploadToS3Contract,
    evidenceKeys: evidenceKeysContract,
  },
  { commonResponses: { 400: ErrorBody, 401: ErrorBody, 404: ErrorBody, 500: ErrorBody } },
);
export type Contract = typeof contract;
