import { callerLinkPath, type CallerLink, type SmsLanguage } from '@locus/contract';
import type { BrowserContext, Page } from 'playwright-core';
import { TestSocket } from '../support/sockets';
import { apiSignIn, newPage, signInWithForm, type AuthEnvironment } from './auth-support';

export type TextBack = NonNullable<Extract<CallerLink, { status: 'active' }>['textBack']>;

export interface OutboxSms {
  to: string;
  body: string;
}

/**
 * What the tracking browser tests share: the dev outbox, the caller's link, a signed-in
 * dispatcher, the caller's phone, and a clean slate between tests. `env` is read when a helper
 * runs (it is created in `beforeAll`).
 */
export function trackingHelpers(environment: () => AuthEnvironment) {
  const base = () => environment().api.url;

  async function outboxSms(to: string): Promise<OutboxSms[]> {
    const response = await fetch(`${base()}/api/v1/dev/outbox/sms?to=${encodeURIComponent(to)}`);
    return (await response.json()) as OutboxSms[];
  }

  /** Waits until the dev outbox holds a text to `to`; bounded by the test's timeout. */
  /**
   * The newest text to `to`, once the worker has sent it. Bounded, so that a text that never
   * goes out fails here, by name, rather than as the whole test's timeout.
   */
  async function waitForSms(to: string, withinMs = 60_000): Promise<OutboxSms> {
    const deadline = Date.now() + withinMs;
    while (Date.now() < deadline) {
      const [text] = await outboxSms(to);
      if (text) return text;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(
      `no text to ${to} reached the dev outbox within ${withinMs} ms; ${await textState(to)}`,
    );
  }

  /**
   * Where a text that never went out got to: its row (none means the dispatcher's request never
   * wrote one) and the sessions of that number, so that a failure names its step.
   */
  async function textState(to: string): Promise<string> {
    const db = environment().database.db;
    const texts = await db
      .selectFrom('sms_messages')
      .select(['status', 'provider', 'error', 'created_at', 'sent_at'])
      .where('phone_number', '=', to)
      .execute();
    const sessions = await db
      .selectFrom('tracking_sessions as s')
      .innerJoin('session_callers as c', 'c.session_id', 's.id')
      .select(['s.status', 's.created_at', 's.ended_at', 'c.text_code', 'c.texts_sent'])
      .where('c.phone_number', '=', to)
      .execute();
    return `texts: ${JSON.stringify(texts)}; sessions: ${JSON.stringify(sessions)}`;
  }

  /** The caller's link, on this test server (the text carries PUBLIC_URL). */
  function callerLinkIn(text: OutboxSms): string {
    const match = /\/share\?token=[A-Za-z0-9_-]{43}/.exec(text.body);
    if (!match) throw new Error(`no caller link in: ${text.body}`);
    return `${base()}${match[0]}`;
  }

  return {
    outboxSms,
    waitForSms,
    callerLinkIn,

    /**
     * A session texted to `number` in `language` through the API, as the dispatcher's console
     * does it: the caller's link, a dispatcher socket joined to the session, and a way to end it.
     */
    async textedSession(
      number: string,
      language: SmsLanguage,
      email = 'dispatcher@demo-county.test',
    ): Promise<{ sessionId: string; link: string; dispatcher: TestSocket; end(): Promise<void> }> {
      const { token } = await apiSignIn(base(), email);
      const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
      const post = async (path: string, body: unknown) => {
        const response = await fetch(`${base()}${path}`, {
          method: 'POST',
          headers,
          body: JSON.stringify(body),
        });
        if (response.status !== 200) throw new Error(`${path} answered ${response.status}`);
        return (await response.json()) as Record<string, string>;
      };
      const stream = await post('/api/v1/location/start-stream', { phoneNumber: number });
      await post('/api/v1/location/request-text-message-location', {
        connectionRequestUuid: stream.uuid,
        language,
      });
      const dispatcher = await TestSocket.open(
        `${environment().api.wsUrl}/api/v1/socket?token=${stream.token}`,
      );
      dispatcher.send('join', { sessionId: stream.uuid });
      await dispatcher.event('joined');
      const link = callerLinkIn(await waitForSms(number));
      return {
        sessionId: stream.uuid!,
        link,
        dispatcher,
        end: async () => {
          await post(`/api/v1/location/set-date-time-completed/${stream.uuid}`, {});
        },
      };
    },

    /** What the caller's link tells its page about texting a position back (issue 23). */
    async textBackOf(link: string): Promise<TextBack> {
      const token = new URL(link).searchParams.get('token')!;
      const answer = await fetch(`${base()}${callerLinkPath}?token=${token}`);
      const body = (await answer.json()) as CallerLink;
      if (body.status !== 'active' || !body.textBack)
        throw new Error(`no textBack: ${body.status}`);
      return body.textBack;
    },

    /** A dispatcher on the dashboard, signed in. */
    async dispatcherPage(email = 'dispatcher@demo-county.test') {
      const { page, context } = await newPage(environment().browser);
      await signInWithForm(page, base(), email);
      return { page, context };
    },

    /** The caller's phone: a small screen, and location granted (or not) at a starting point. */
    async callerPhone(
      options: { grant?: boolean; latitude?: number; longitude?: number } = {},
    ): Promise<{ page: Page; context: BrowserContext }> {
      const { grant = true, latitude = 38.8977, longitude = -77.0365 } = options;
      const context = await environment().browser.newContext({
        viewport: { width: 360, height: 740 },
        isMobile: true,
        hasTouch: true,
        ...(grant
          ? { permissions: ['geolocation'], geolocation: { latitude, longitude, accuracy: 15 } }
          : {}),
      });
      context.setDefaultTimeout(10_000);
      return { page: await context.newPage(), context };
    },

    /**
     * Ends every session the dispatcher could resume: a test that fails half-way must not leave
     * one that the next test's dashboard picks up.
     */
    async endActiveSessions(email = 'dispatcher@demo-county.test'): Promise<void> {
      const { token } = await apiSignIn(base(), email);
      const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
      for (;;) {
        const active = await fetch(`${base()}/api/v1/location/active-session`, { headers });
        const { session } = (await active.json()) as { session: { uuid: string } | null };
        if (!session) return;
        await fetch(`${base()}/api/v1/location/set-date-time-completed/${session.uuid}`, {
          method: 'POST',
          headers,
          body: '{}',
        });
      }
    },
  };
}
