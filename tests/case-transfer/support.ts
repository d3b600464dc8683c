import { realtimePaths, type CaseTransfer } from '@locus/contract';
import { expect } from 'vitest';
import { call } from '../auth/support';
import type { TestApi } from '../support/api';
import { TestSocket, type ReceivedFrame } from '../support/sockets';
import type { ConnectionRequest } from '../tracking/support';

export const offererEmail = 'dispatcher@demo-county.test';
export const colleagueEmail = 'dispatcher2@demo-county.test';
export const teamAdminEmail = 'teamadmin@demo-county.test';
export const otherTeamEmail = 'dispatcher@neighbour-county.test';

/** A signed-in console's socket (what makes its user `online`), greeted. */
export async function openConsole(api: TestApi, token: string): Promise<TestSocket> {
  const ticket = await call<{ ticket: string }>(api, 'GET', '/api/v1/console/ticket', { token });
  expect(ticket.status).toBe(200);
  const socket = await TestSocket.open(
    `${api.wsUrl}${realtimePaths.console}?ticket=${ticket.body.ticket}`,
  );
  await socket.event('broadcasts');
  return socket;
}

/** Re-asks `check` until it holds: for state another process changes (presence, expiry). */
export async function until(check: () => Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 50));
}

/** Waits until a colleague shows `online` in the session's transfer candidates. */
export async function untilOnline(
  api: TestApi,
  token: string,
  sessionId: string,
  userId: string,
): Promise<void> {
  await until(async () => {
    const answer = await call<{ candidates: { id: string; online: boolean }[] }>(
      api,
      'GET',
      `/api/v1/location/transfer-candidates/${sessionId}`,
      { token },
    );
    return answer.body.candidates?.some((c) => c.id === userId && c.online) ?? false;
  });
}

export const phonePath = (phone: string) => encodeURIComponent(phone);

export function offer(api: TestApi, token: string, sessionId: string, toUserId: string) {
  return call<CaseTransfer>(api, 'POST', `/api/v1/location/offer-transfer/${sessionId}`, {
    token,
    body: { toUserId },
  });
}

export function joinStream(api: TestApi, token: string, transfer: CaseTransfer) {
  return call<{ token: string }>(
    api,
    'POST',
    `/api/v1/location/join-stream/${transfer.transferUuid}/${phonePath(transfer.phoneNumber)}`,
    { token },
  );
}

export function confirm(api: TestApi, token: string, transfer: CaseTransfer, socketToken: string) {
  return call<{ transfer: CaseTransfer; session: { uuid: string; token: string } }>(
    api,
    'POST',
    `/api/v1/location/mark-case-transfer-confirmation/${transfer.sessionUuid}/${phonePath(
      transfer.phoneNumber,
    )}/${socketToken}`,
    { token },
  );
}

export function mark(api: TestApi, token: string, transfer: CaseTransfer) {
  return call<CaseTransfer>(
    api,
    'POST',
    `/api/v1/location/mark-transfer/${transfer.sessionUuid}/${phonePath(transfer.phoneNumber)}/0`,
    { token },
  );
}

export function checkTransfer(api: TestApi, token: string, sessionId: string, phone: string) {
  return call<{ pending: 0 | 1; transfer: CaseTransfer | null }>(
    api,
    'GET',
    `/api/v1/location/check-transfer/${sessionId}/${phonePath(phone)}`,
    { token },
  );
}

/** The frame of a transfer in a given status, on a console or dispatcher socket. */
export function transferFrame(
  socket: TestSocket,
  transferUuid: string,
  status: CaseTransfer['status'],
): Promise<ReceivedFrame> {
  return socket.next(
    (frame) =>
      frame.event === 'case-transfer' &&
      frame.data.transferUuid === transferUuid &&
      frame.data.status === status,
  );
}

/** A dispatcher socket opened with a token, not yet joined. */
export function dispatcherSocket(api: TestApi, token: string): Promise<TestSocket> {
  return TestSocket.open(`${api.wsUrl}/api/v1/socket?token=${token}`);
}

/** Joins and resolves once `joined` arrived. */
export async function join(
  api: TestApi,
  request: Pick<ConnectionRequest, 'uuid' | 'token'>,
): Promise<TestSocket> {
  const socket = await dispatcherSocket(api, request.token);
  socket.send('join', { sessionId: request.uuid });
  await socket.event('joined');
  return socket;
}
