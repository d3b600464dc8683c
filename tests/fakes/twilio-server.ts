import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import twilio from 'twilio';
import { HttpFake, readBody } from './http-fake';

export interface FakeMessage {
  sid: string;
  to: string;
  from: string | null;
  messagingServiceSid: string | null;
  body: string;
  statusCallback: string | null;
}

/**
 * Twilio's Messages API on a real port: POST /2010-04-01/Accounts/{sid}/Messages.json with
 * HTTP basic auth and a form body, answering like Twilio (201 with the message resource, or
 * an error object with Twilio's numeric code). It can also play Twilio calling us back: signed
 * status callbacks and inbound messages.
 */
export class FakeTwilio extends HttpFake {
  readonly accountSid = `AC${randomBytes(16).toString('hex')}`;
  readonly authToken = randomBytes(16).toString('hex');
  readonly messages: FakeMessage[] = [];
  /** Numbers that replied STOP: sending to them fails with error 21610. */
  readonly optedOut = new Set<string>();
  /** Numbers that are landlines: error 21614. */
  readonly landlines = new Set<string>();
  /** Answer the next this-many sends with 503. */
  failNext = 0;
  /**
   * Runs before a send is answered, the message already accepted (and `messages` holding it):
   * how a test plays Twilio's status callback overtaking its own answer, or a slow answer.
   */
  beforeAnswer: ((message: FakeMessage) => Promise<void>) | undefined;
  /** How many times the message list was read (a retry asking whether a text went out). */
  listCalls = 0;
  /** While set, every send waits for it before Twilio decides anything: a slow Twilio. */
  hold: Promise<void> | undefined;

  /**
   * POSTs a form to `url` signed as Twilio signs webhooks (X-Twilio-Signature). Twilio signs the
   * URL configured for the webhook (`signedUrl`: the public one), which a proxy may forward to
   * another address (`url`).
   */
  async callback(
    url: string,
    params: Record<string, string>,
    options: { authToken?: string; signedUrl?: string; signedParams?: Record<string, string> } = {},
  ) {
    const signature = twilio.getExpectedTwilioSignature(
      options.authToken ?? this.authToken,
      options.signedUrl ?? url,
      options.signedParams ?? params,
    );
    return fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-twilio-signature': signature,
      },
      body: new URLSearchParams(params),
    });
  }

  protected async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const send = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    const error = (status: number, code: number, message: string) =>
      send(status, {
        code,
        message,
        more_info: `https://www.twilio.com/docs/errors/${code}`,
        status,
      });
    const url = new URL(request.url ?? '/', 'http://fake');
    const path = url.pathname;
    const listPath = `/2010-04-01/Accounts/${this.accountSid}/Messages.json`;
    if (request.method === 'GET' && path === listPath) {
      if (request.headers.authorization !== this.basicAuth()) {
        return error(401, 20003, 'Authenticate');
      }
      this.listCalls += 1;
      // Twilio's list page: newest first, optionally filtered by To.
      const to = url.searchParams.get('To');
      const pageSize = Number(url.searchParams.get('PageSize') ?? 50);
      const matching = this.messages.filter((message) => !to || message.to === to).reverse();
      return send(200, {
        messages: matching.slice(0, pageSize).map((message) => this.resource(message)),
        page: 0,
        page_size: pageSize,
        first_page_uri: `${listPath}?PageSize=${pageSize}&Page=0`,
        next_page_uri: null,
        previous_page_uri: null,
        uri: `${listPath}?PageSize=${pageSize}&Page=0`,
        start: 0,
        end: Math.max(0, Math.min(pageSize, matching.length) - 1),
      });
    }
    if (
      request.method !== 'POST' ||
      path !== `/2010-04-01/Accounts/${this.accountSid}/Messages.json`
    ) {
      return error(404, 20404, 'The requested resource was not found');
    }
    if (request.headers.authorization !== this.basicAuth()) {
      return error(401, 20003, 'Authenticate');
    }
    const form = new URLSearchParams(await readBody(request));
    const to = form.get('To') ?? '';
    const body = form.get('Body') ?? '';
    if (!/^\+[1-9]\d{6,14}$/.test(to))
      return error(400, 21211, `The 'To' number ${to} is not a valid phone number.`);
    if (!form.get('From') && !form.get('MessagingServiceSid')) {
      return error(400, 21603, "A 'From' or 'MessagingServiceSid' parameter is required");
    }
    await this.hold;
    if (this.optedOut.has(to)) {
      return error(400, 21610, 'Attempt to send to unsubscribed recipient');
    }
    if (this.landlines.has(to)) {
      return error(400, 21614, `'To' number ${to} is not a valid mobile number`);
    }
    if (this.failNext > 0) {
      this.failNext -= 1;
      return error(503, 20503, 'Service unavailable');
    }
    const message: FakeMessage = {
      sid: `SM${randomBytes(16).toString('hex')}`,
      to,
      from: form.get('From'),
      messagingServiceSid: form.get('MessagingServiceSid'),
      body,
      statusCallback: form.get('StatusCallback'),
    };
    this.messages.push(message);
    await this.beforeAnswer?.(message);
    send(201, this.resource(message));
  }

  private basicAuth(): string {
    return `Basic ${Buffer.from(`${this.accountSid}:${this.authToken}`).toString('base64')}`;
  }

  /** A message as Twilio's REST API answers it. */
  private resource(message: FakeMessage) {
    return {
      sid: message.sid,
      account_sid: this.accountSid,
      to: message.to,
      from: message.from,
      messaging_service_sid: message.messagingServiceSid,
      body: message.body,
      status: 'queued',
      num_segments: '1',
      direction: 'outbound-api',
      api_version: '2010-04-01',
      date_created: new Date().toUTCString(),
      uri: `/2010-04-01/Accounts/${this.accountSid}/Messages/${message.sid}.json`,
    };
  }
}
