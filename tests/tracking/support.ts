import { expect } from 'vitest';
import type { TestApi } from '../support/api';
import { TestSocket } from '../support/sockets';
import { call } from '../auth/support';
import type { FakeTwilio } from '../fakes/twilio-server';

export const dispatcherEmail = 'dispatcher@demo-county.test';
export const otherTeamEmail = 'dispatcher@neighbour-county.test';
/** Simulator numbers (README): 0100–0149 are found, 0150–0199 have no record. */
export const foundNumber = '+12025550107';
export const unknownNumber = '+12025550163';

export interface ConnectionRequest {
  uuid: string;
  token: string;
  id: string;
}

export async function startStream(
  api: TestApi,
  token: string,
  phoneNumber: string,
): Promise<ConnectionRequest> {
  const answer = await call<ConnectionRequest>(api, 'POST', '/api/v1/location/start-stream', {
    token,
    body: { phoneNumber },
  });
  if (answer.status !== 200)
    throw new Error(`start-stream answered ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body;
}

/** The dispatcher socket of a connection request, joined; resolves once `joined` arrived. */
export async function joinSession(api: TestApi, request: ConnectionRequest): Promise<TestSocket> {
  const socket = await TestSocket.open(`${api.wsUrl}/api/v1/socket?token=${request.token}`);
  socket.send('join', { sessionId: request.uuid });
  await socket.event('joined');
  return socket;
}

export interface OutboxSms {
  to: string;
  body: string;
  createdAt: string;
}

export async function outboxSms(api: TestApi, to: string): Promise<OutboxSms[]> {
  const answer = await call<OutboxSms[]>(
    api,
    'GET',
    `/api/v1/dev/outbox/sms?to=${encodeURIComponent(to)}`,
  );
  if (answer.status !== 200) throw new Error(`dev outbox answered ${answer.status}`);
  return answer.body;
}

/**
 * The texts sent to `to` once there are at least `atLeast`: the API answers a text request after
 * the worker sends it or after SMS_WAIT_MS, whichever comes first, so on a starved machine the
 * text may land in the outbox just after the answer.
 */
export async function sentTexts(api: TestApi, to: string, atLeast = 1): Promise<OutboxSms[]> {
  let texts: OutboxSms[] = [];
  await expect
    .poll(async () => (texts = await outboxSms(api, to)).length, { timeout: 30_000 })
    .toBeGreaterThanOrEqual(atLeast);
  return texts;
}

/** The caller link's token in a text message. */
export function linkTokenIn(body: string): string {
  const match = /\/share\?token=([A-Za-z0-9_-]{43})/.exec(body);
  if (!match) throw new Error(`no caller link in: ${body}`);
  return match[1]!;
}

export function callerSocket(
  api: TestApi,
  linkToken: string,
  headers?: Record<string, string>,
): Promise<TestSocket> {
  return TestSocket.open(`${api.wsUrl}/api/v1/caller/socket?token=${linkToken}`, headers);
}

/** The number the fake Twilio texts from, and the one a caller's page offers to text back. */
export const twilioFrom = '+15005550006';

/**
 * `startAuthStack` options for an API and worker that text through the fake Twilio: the worker
 * sends to it, and the API checks webhooks signed over `publicUrl`, as Twilio would call them.
 */
export function twilioStackOptions(fake: FakeTwilio, publicUrl: string) {
  const twilio = {
    SMS_PROVIDER: 'twilio',
    TWILIO_AUTH_TOKEN: fake.authToken,
    TWILIO_FROM: twilioFrom,
    PUBLIC_URL: publicUrl,
  };
  return {
    env: twilio,
    workerEnv: { ...twilio, TWILIO_ACCOUNT_SID: fake.accountSid, TWILIO_API_BASE_URL: fake.url },
  };
}
