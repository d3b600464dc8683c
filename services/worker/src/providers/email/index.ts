import type { WorkerConfig } from '../../config';
import { outboxEmailProvider } from './outbox';
import type { EmailProvider } from './provider';
import { smtpEmailProvider } from './smtp';

export function emailProviderFromConfig(
  config: Pick<WorkerConfig, 'EMAIL_PROVIDER' | 'SMTP_URL' | 'EMAIL_FROM'>,
): EmailProvider {
  if (config.EMAIL_PROVIDER === 'outbox') return outboxEmailProvider;
  if (!config.SMTP_URL) throw new Error('SMTP_URL is required with EMAIL_PROVIDER=smtp');
  return smtpEmailProvider({ url: config.SMTP_URL, from: config.EMAIL_FROM });
}

export { TerminalEmailError, type EmailProvider, type OutgoingEmail } from './provider';
