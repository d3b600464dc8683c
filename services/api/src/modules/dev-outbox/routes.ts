import { devOutboxContract } from '@locus/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ApiConfig } from '../../config';
import { registerContract } from '../../http/contract-routes';
import type { TrackingDeps } from '../location/service';
import { receiveSms } from '../sms/service';
import { auditOutboxRead } from './audit';
import { listOutboxEmails, listOutboxSms } from './repo';

/**
 * Only when explicitly switched on (DEV_OUTBOX=on) and nothing real is sent. The config already
 * refuses DEV_OUTBOX=on with a real provider or in production; checked again here so that a
 * config built another way cannot expose real people's links.
 */
export function devOutboxEnabled(config: ApiConfig): boolean {
  return (
    config.DEV_OUTBOX === 'on' &&
    config.EMAIL_PROVIDER === 'outbox' &&
    config.SMS_PROVIDER === 'outbox' &&
    config.NODE_ENV !== 'production'
  );
}

/**
 * GET /api/v1/dev/outbox/{email,sms}: what Locus would have sent, newest first, so that someone
 * trying the demo can follow the links; POST …/sms/inbound: a phone's reply, for the demo of
 * STOP or of a location texted back. Not registered at all otherwise (404).
 */
export function devOutboxRoutes(app: FastifyInstance, deps: TrackingDeps): void {
  const { db, config } = deps;
  if (!devOutboxEnabled(config)) return;
  // Test stacks switch it on by the hundred: there it is expected, not worth a warning.
  const level = config.NODE_ENV === 'test' ? 'info' : 'warn';
  app.log[level](
    'DEV_OUTBOX=on: anyone can read every e-mail and text message at /api/v1/dev/outbox. Never use it with real users.',
  );
  const audited = (request: FastifyRequest, box: 'email' | 'sms' | 'sms-inbound') =>
    auditOutboxRead(deps, { ip: request.ip, box });
  registerContract(app, devOutboxContract, {
    email: async ({ query }, { request }) => {
      await audited(request, 'email');
      return { status: 200, body: await listOutboxEmails(db, { to: query.to, limit: 100 }) };
    },
    sms: async ({ query }, { request }) => {
      await audited(request, 'sms');
      return { status: 200, body: await listOutboxSms(db, { to: query.to, limit: 100 }) };
    },
    receiveSms: async ({ body }, { request }) => {
      await audited(request, 'sms-inbound');
      const reply = await receiveSms(deps, { from: body.from, body: body.body, messageSid: null });
      return { status: 200, body: { reply } };
    },
  });
}
