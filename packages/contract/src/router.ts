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
import { callListsContract } from './call-lists';
import { trackingContract } from './tracking';
import { ErrorBody } from './errors';

const c = initContract();

const Check = z.object({ ok: z.boolean(), latencyMs: z.number(), error: z.string().optional() });
export const Health = z.object({
  status: z.enum(['ok', 'unavailable']),
  checks: z.object({ postgres: Check, redis: Check }),
  version: z.string(),
});
export type Health = z.infer<typeof Health>;

export const healthContract = c.router({
  health: {
    method: 'GET',
    path: '/api/v1/health',
    summary: 'Liveness and readiness: checks Postgres and Redis',
    responses: { 200: Health, 503: Health },
  },
});

export const contract = c.router(
  {
    health: healthContract,
    auth: authContract,
    psap: psapContract,
    users: usersContract,
    uscg: uscgContract,
    demoRequests: demoRequestsContract,
    devOutbox: devOutboxContract,
    publicConfig: publicConfigContract,
    tracking: trackingContract,
    callLists: callListsContract,
  },
  { commonResponses: { 400: ErrorBody, 401: ErrorBody, 404: ErrorBody, 500: ErrorBody } },
);
export type Contract = typeof contract;
