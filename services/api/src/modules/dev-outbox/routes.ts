import { devOutboxContract } from '@locus/contract';
import type { FastifyInstance } from 'fastify';
import type { ApiConfig } from '../../config';
import { registerContract } from '../../http/contract-routes';
import type { AppDeps } from '../../platform/deps';
import { listOutboxEmails, listOutboxSms } from './repo';

/** Only where nothing real is sent and nobody real signs up: outbox providers, not production. */
export function devOutboxEnabled(config: ApiConfig): boolean {
  return config.EMAIL_PROVIDER === 'outbox' && config.NODE_ENV !== 'production';
}

/**
 * GET /api/v1/dev/outbox/{email,sms}: what Locus would have sent, newest first, so that someone
 * trying the demo can follow the links. Not registered at all otherwise (404).
 */
export function devOutboxRoutes(app: FastifyInstance, { db, config }: AppDeps): void {
  if (!devOutboxEnabled(config)) return;
  registerContract(app, devOutboxContract, {
    email: async ({ query }) => ({
      status: 200,
      body: await listOutboxEmails(db, { to: query.to, limit: 100 }),
    }),
    sms: async ({ query }) => ({
      status: 200,
      body: await listOutboxSms(db, { to: query.to, limit: 100 }),
    }),
  });
}
