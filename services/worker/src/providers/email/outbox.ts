import type { EmailProvider } from './provider';

/**
 * The default provider: nothing leaves the machine. The `emails` row already holds the whole
 * message; marking it sent with provider `outbox` is what makes it appear in the dev outbox
 * (GET /api/v1/dev/outbox/email).
 */
export const outboxEmailProvider: EmailProvider = {
  name: 'outbox',
  send: async () => undefined,
  close: async () => undefined,
};
