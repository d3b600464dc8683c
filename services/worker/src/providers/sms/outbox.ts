import { randomUUID } from 'node:crypto';
import type { SmsProvider } from './provider';

/**
 * The default: nothing leaves the machine. The row is marked sent with provider `outbox`, and
 * outside production `GET /api/v1/dev/outbox/sms` lists it so that anyone can play the caller.
 */
export const outboxSmsProvider: SmsProvider = {
  name: 'outbox',
  send: () => Promise.resolve({ providerMessageId: `outbox-${randomUUID()}`, status: 'sent' }),
};
