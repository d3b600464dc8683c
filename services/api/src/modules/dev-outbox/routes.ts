import { devOutboxContract } from '@locus/contract';
import type { FastifyInstance } from 'fastify';
import type { ApiConfig } from '../../config';
import { registerContract } from '../../http/contract-routes';
import type { TrackingDeps } from '../location/service';
import { receiveSms } from '../sms/service';
import { listOutboxEmails, listOutboxSms } from './repo';

/** Only where nothing real is sent and nobody real signs up: outbox providers, not production. */
export function devOutboxEnabled(config: ApiConfig): boolean {
  return config.EMAIL_PROVIDER === 'outbox' && config.NODE_ENV !== 'production';
}

/**
 * GET /api/v1/dev/outbox/{email,sms}: what Locus would have sent, newest first, so that someone
 * trying the demo can follow the links; POST …/sms/inbound: a phone's reply, for the demo of
 * STOP or of a location texted back. Not registered at all otherwise (404).
 */
export function devOutboxRoutes(app: FastifyInstance, deps: TrackingDeps): void {
  const { db, config } = deps;
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
    receiveSms: async ({ body }) => {
      // With Twilio, replies come signed through its webhook; nothing may fake them here.
      if (config.SMS_PROVIDER !== 'outbox')
        return { status: 404, body: { error: 'not-found', message: 'Not found.' } };
      const reply = await receiveSms(deps, { from: body.from, body: body.body, messageSid: null });
      return { status: 200, body: { reply } };
    },
  });
}
