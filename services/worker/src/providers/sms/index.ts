import type { WorkerConfig } from '../../config';
import { outboxSmsProvider } from './outbox';
import type { SmsProvider } from './provider';
import { TwilioSmsProvider } from './twilio';

export function smsProviderFromConfig(config: WorkerConfig): SmsProvider {
  if (config.SMS_PROVIDER === 'outbox') return outboxSmsProvider;
  return new TwilioSmsProvider({
    accountSid: config.TWILIO_ACCOUNT_SID!,
    authToken: config.TWILIO_AUTH_TOKEN!,
    from: config.TWILIO_FROM!,
    ...(config.TWILIO_API_BASE_URL ? { apiBaseUrl: config.TWILIO_API_BASE_URL } : {}),
  });
}

export { SmsError, type SmsProvider } from './provider';
