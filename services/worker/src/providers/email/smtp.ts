import nodemailer from 'nodemailer';
import { TerminalEmailError, type EmailProvider } from './provider';

/**
 * SMTP replies that mean "never": 5xx about this message or its recipient. Authentication and
 * policy replies (530, 535, 554 from a server that is misconfigured for us) are left to the
 * retries and the sweeper, because fixing the configuration makes them succeed.
 */
export function isTerminalSmtpError(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { responseCode, code } = error as { responseCode?: unknown; code?: unknown };
  if (code === 'EENVELOPE' && responseCode === undefined) return true;
  return typeof responseCode === 'number' && [550, 551, 553].includes(responseCode);
}

/** Sends through an SMTP server (`SMTP_URL`, e.g. smtps://user:pass@mail.example.org:465). */
export function smtpEmailProvider(options: { url: string; from: string }): EmailProvider {
  const transport = nodemailer.createTransport(options.url);
  return {
    name: 'smtp',
    async send(email) {
      try {
        await transport.sendMail({
          from: options.from,
          to: email.to,
          subject: email.subject,
          text: email.text,
        });
      } catch (error) {
        if (isTerminalSmtpError(error))
          throw new TerminalEmailError(error instanceof Error ? error.message : String(error));
        throw error;
      }
    },
    close: async () => transport.close(),
  };
}
