import twilio from 'twilio';
import { SmsError, type OutgoingSms, type SentSms, type SmsProvider } from './provider';

export interface TwilioConfig {
  accountSid: string;
  authToken: string;
  /** A Messaging Service sid (MG…) or a sending number in E.164. */
  from: string;
  /**
   * Where Twilio's REST API lives. Only for a Twilio-compatible proxy or the test double; the
   * official host is used when unset.
   */
  apiBaseUrl?: string;
}

const twilioApi = 'https://api.twilio.com';
type RequestOptions<TData> = Parameters<twilio.RequestClient['request']>[0] & { data?: TData };

/** Twilio's own HTTP client, pointed at another host when configured. */
class RebasedRequestClient extends twilio.RequestClient {
  constructor(private readonly baseUrl: string) {
    super();
  }

  override request<TData>(opts: RequestOptions<TData>) {
    return super.request<TData>({ ...opts, uri: opts.uri.replace(twilioApi, this.baseUrl) });
  }
}

// https://www.twilio.com/docs/api/errors: failures that no retry can fix.
const terminalErrors: Record<number, SmsError['code']> = {
  21610: 'opted-out', // the recipient replied STOP
  21614: 'not-mobile', // a landline or unreachable carrier
  21211: 'invalid-number',
  21217: 'invalid-number',
  21408: 'rejected', // sending to this region is not enabled
  21612: 'rejected',
};

interface TwilioRestError {
  status?: number;
  code?: number;
  message?: string;
}

/** Sends text messages through Twilio's Messages API with the official `twilio` package. */
export class TwilioSmsProvider implements SmsProvider {
  readonly name = 'twilio';
  private readonly client: twilio.Twilio;

  constructor(private readonly config: TwilioConfig) {
    this.client = config.apiBaseUrl
      ? twilio(config.accountSid, config.authToken, {
          httpClient: new RebasedRequestClient(config.apiBaseUrl),
        })
      : twilio(config.accountSid, config.authToken);
  }

  /**
   * The newest messages to the number (Twilio lists newest first), created since the first
   * attempt, whose body holds the token. The token, not the whole body: Twilio may re-encode a
   * body (smart encoding), never a URL's token.
   */
  async findSent(query: { to: string; token: string; since: Date }): Promise<SentSms | undefined> {
    const recent = await this.client.messages.list({ to: query.to, limit: 50 });
    const sent = recent.find(
      (candidate) =>
        candidate.body.includes(query.token) &&
        (!candidate.dateCreated || candidate.dateCreated.getTime() >= query.since.getTime()),
    );
    return sent ? { providerMessageId: sent.sid, status: sent.status } : undefined;
  }

  async send(message: OutgoingSms): Promise<SentSms> {
    const sender = this.config.from.startsWith('MG')
      ? { messagingServiceSid: this.config.from }
      : { from: this.config.from };
    try {
      const sent = await this.client.messages.create({
        to: message.to,
        body: message.body,
        ...sender,
        ...(message.statusCallbackUrl ? { statusCallback: message.statusCallbackUrl } : {}),
      });
      return { providerMessageId: sent.sid, status: sent.status };
    } catch (error) {
      const rest = error as TwilioRestError;
      const terminal = rest.code !== undefined ? terminalErrors[rest.code] : undefined;
      if (terminal) throw new SmsError(terminal, true, rest.message ?? `Twilio error ${rest.code}`);
      if (
        rest.status !== undefined &&
        rest.status >= 400 &&
        rest.status < 500 &&
        rest.status !== 429
      ) {
        throw new SmsError('rejected', true, rest.message ?? `Twilio answered ${rest.status}`);
      }
      throw new SmsError(
        'unavailable',
        false,
        rest.message ?? (error instanceof Error ? error.message : String(error)),
      );
    }
  }
}
