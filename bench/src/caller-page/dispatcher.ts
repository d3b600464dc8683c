import { AuthToken, ConnectionRequest, OutboxSms, realtimePaths } from '@locus/contract';
import { DEMO_PASSWORD } from '@locus/db';
import WebSocket from 'ws';

/** The seeded demo dispatcher (README "Demo accounts"). */
export const demoDispatcher = 'dispatcher@demo-county.test';

/** README: the simulator has no record of +1 202 555 0150 … 0199, so Locus texts a link. */
export const noRecordNumber = (index: number): string =>
  `+1202555${String(150 + (index % 50)).padStart(4, '0')}`;

/** Any JSON answer, unchecked. */
const anything = (value: unknown): unknown => value;

async function call<T>(
  baseUrl: string,
  path: string,
  parse: (value: unknown) => T,
  init: { method?: string; token?: string; body?: unknown } = {},
): Promise<T> {
  const response = await fetch(`${baseUrl}${path}`, {
    method: init.method ?? 'GET',
    headers: {
      ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await response.text();
  if (!response.ok)
    throw new Error(`${init.method ?? 'GET'} ${path} answered ${response.status}: ${text}`);
  return parse(JSON.parse(text));
}

export async function signIn(baseUrl: string): Promise<string> {
  const { token } = await call(baseUrl, '/api/v1/auth/sign-in', (v) => AuthToken.parse(v), {
    method: 'POST',
    body: { email: demoDispatcher, password: DEMO_PASSWORD, staySignedIn: false },
  });
  return token;
}

/** A tracking session with its caller link, as the dispatcher's console makes one. */
export interface CallerLink {
  session: ConnectionRequest;
  phoneNumber: string;
  /** The link from the text, on `baseUrl`'s origin (the text carries PUBLIC_URL's). */
  url: string;
}

const seenLinks = new Set<string>();

/**
 * start-stream, then request-text-message-location in English, then the link from the dev SMS
 * outbox: the newest text to the number that this bench has not used yet.
 */
export async function createCallerLink(
  baseUrl: string,
  authToken: string,
  phoneNumber: string,
): Promise<CallerLink> {
  const session = await call(
    baseUrl,
    '/api/v1/location/start-stream',
    (v) => ConnectionRequest.parse(v),
    {
      method: 'POST',
      token: authToken,
      body: { phoneNumber },
    },
  );
  const textedAt = Date.now();
  await call(baseUrl, '/api/v1/location/request-text-message-location', anything, {
    method: 'POST',
    token: authToken,
    body: { connectionRequestUuid: session.uuid, language: 'en' },
  });
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    const texts = await call(
      baseUrl,
      `/api/v1/dev/outbox/sms?to=${encodeURIComponent(phoneNumber)}`,
      (v) => OutboxSms.array().parse(v),
    );
    for (const text of texts) {
      const link = /https?:\/\/\S+\/share\?token=[\w-]+/.exec(text.body)?.[0];
      // A few seconds of slack: the API and this process read the same clock, to the ms.
      if (!link || seenLinks.has(link) || Date.parse(text.createdAt) < textedAt - 5_000) continue;
      seenLinks.add(link);
      const { pathname, search } = new URL(link);
      return { session, phoneNumber, url: `${baseUrl}${pathname}${search}` };
    }
    await new Promise((wait) => setTimeout(wait, 100));
  }
  throw new Error(`no text with a link reached the dev outbox for ${phoneNumber} within 20 s`);
}

export async function endSession(baseUrl: string, authToken: string, uuid: string): Promise<void> {
  await call(baseUrl, `/api/v1/location/set-date-time-completed/${uuid}`, anything, {
    method: 'POST',
    token: authToken,
    body: {},
  });
}

/** A server frame's event and its `callerId`, if it names one. */
function readFrame(raw: unknown): { event: string; callerId: string | null } | null {
  let frame: unknown;
  try {
    frame = JSON.parse(String(raw));
  } catch {
    return null;
  }
  if (typeof frame !== 'object' || frame === null || !('event' in frame)) return null;
  const data = 'data' in frame ? frame.data : null;
  const callerId =
    typeof data === 'object' && data !== null && 'callerId' in data ? data.callerId : null;
  return {
    event: String(frame.event),
    callerId: typeof callerId === 'string' ? callerId : null,
  };
}

/** The dispatcher's socket on one session, noting when each caller's first fix arrives. */
export class DispatcherSocket {
  private readonly firstFixAt = new Map<string, number>();
  private readonly waiters = new Map<string, (at: number) => void>();

  private constructor(private readonly socket: WebSocket) {
    socket.on('message', (raw) => {
      // Stamped first, before any parsing: this is the fix's arrival time.
      const at = Date.now();
      const frame = readFrame(raw);
      if (frame?.event !== 'new-location-available' || !frame.callerId) return;
      const callerId = frame.callerId;
      if (this.firstFixAt.has(callerId)) return;
      this.firstFixAt.set(callerId, at);
      this.waiters.get(callerId)?.(at);
    });
  }

  /** Opens `/api/v1/socket?token=…`, sends `join` and waits for `joined`. */
  static async open(baseUrl: string, session: ConnectionRequest): Promise<DispatcherSocket> {
    const url = `${baseUrl.replace(/^http/, 'ws')}${realtimePaths.dispatcher}?token=${encodeURIComponent(session.token)}`;
    const socket = new WebSocket(url);
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error('the dispatcher socket did not join')),
        10_000,
      );
      socket.once('error', reject);
      socket.once('close', (code) => reject(new Error(`the dispatcher socket closed (${code})`)));
      socket.on('message', (raw) => {
        if (readFrame(raw)?.event === 'joined') {
          clearTimeout(timer);
          resolve();
        }
      });
      socket.once('open', () =>
        socket.send(JSON.stringify({ event: 'join', data: { sessionId: session.uuid } })),
      );
    });
    socket.removeAllListeners('close');
    socket.removeAllListeners('error');
    socket.on('error', () => {});
    return new DispatcherSocket(socket);
  }

  /** `Date.now()` when the caller's first fix arrived, waiting for it up to `timeoutMs`. */
  firstFix(callerId: string, timeoutMs: number): Promise<number> {
    const known = this.firstFixAt.get(callerId);
    if (known !== undefined) return Promise.resolve(known);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.delete(callerId);
        reject(new Error(`no fix reached the dispatcher's socket within ${timeoutMs / 1000} s`));
      }, timeoutMs);
      this.waiters.set(callerId, (at) => {
        clearTimeout(timer);
        this.waiters.delete(callerId);
        resolve(at);
      });
    });
  }

  close(): void {
    this.socket.close();
  }
}
