/// <reference lib="dom" />
import { openSession } from '@locus/api';
import type { IceServer } from '@locus/contract';
import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCoturn, type RunningTurn } from '../../infra/src/coturn';
import { freePort } from '../../infra/src/free-port';
import { startApi, testRedisPrefix, type TestApi } from '../support/api';
import { launchBrowser } from '../support/browser';
import { freshDatabase, type TestDatabase } from '../support/database';
import { TestSocket } from '../support/sockets';

// Issue 19: the API's short-lived TURN credentials are accepted by a real coturn (Debian's
// `coturn`, started here on free ports with use-auth-secret), as Chromium proves by gathering a
// relay candidate with iceTransportPolicy 'relay'; a credential made with another secret gets none.
let database: TestDatabase;
let api: TestApi;
let turn: RunningTurn;
let browser: Browser;
let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'locus-turn-'));
  const relayMin = 40_000 + Math.floor(Math.random() * 20_000);
  turn = await startCoturn({
    port: await freePort(),
    dataDir,
    loopbackOnly: true,
    relayPorts: { min: relayMin, max: relayMin + 50 },
  });
  database = await freshDatabase();
  api = await startApi({
    databaseUrl: database.url,
    redisPrefix: testRedisPrefix(),
    env: { TURN_URLS: turn.urls.join(','), TURN_SECRET: turn.secret },
  });
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await api?.close();
  await database?.drop();
  await turn?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/** The ICE servers a caller is handed with a video request, through the real sockets. */
async function iceServersFromRequest(): Promise<IceServer[]> {
  const session = await openSession(database.db, { callers: [{ phoneNumber: '+12025550123' }] });
  const dispatcher = await TestSocket.open(
    `${api.wsUrl}/api/v1/socket?token=${session.dispatcherToken}`,
  );
  dispatcher.send('join', { sessionId: session.sessionId });
  await dispatcher.event('joined');
  const caller = await TestSocket.open(
    `${api.wsUrl}/api/v1/caller/socket?token=${session.callers[0]!.token}`,
  );
  dispatcher.send('media-request', {
    callerId: session.callers[0]!.callerId,
    kind: 'video',
    audio: false,
  });
  const request = await caller.event('media-request');
  await Promise.all([caller.close(), dispatcher.close()]);
  return request.data.iceServers as IceServer[];
}

/** The candidate types Chromium gathers through only these servers, relay only. */
async function gatheredTypes(iceServers: IceServer[]): Promise<string[]> {
  const page = await browser.newPage();
  try {
    return await page.evaluate(
      (servers) =>
        new Promise<string[]>((resolve) => {
          const types: string[] = [];
          const connection = new RTCPeerConnection({
            iceServers: servers,
            iceTransportPolicy: 'relay',
          });
          const done = () => {
            connection.close();
            resolve(types);
          };
          connection.onicecandidate = (event) => {
            if (!event.candidate) return done();
            types.push(/ typ (\w+)/.exec(event.candidate.candidate)?.[1] ?? 'unknown');
          };
          connection.createDataChannel('probe');
          void connection.createOffer().then((offer) => connection.setLocalDescription(offer));
        }),
      iceServers,
    );
  } finally {
    await page.close();
  }
}

describe('TURN credentials', () => {
  it('are accepted by coturn: Chromium gathers a relay candidate', async () => {
    const iceServers = await iceServersFromRequest();
    expect(iceServers).toHaveLength(1);
    const [server] = iceServers;
    expect(server!.urls).toEqual(turn.urls);
    const types = await gatheredTypes(iceServers);
    expect(types).toContain('relay');
    expect(types.every((type) => type === 'relay')).toBe(true);
  }, 60_000);

  it('made with another secret, are refused: no relay candidate', async () => {
    const [server] = await iceServersFromRequest();
    const forged = {
      ...server!,
      credential: createHmac('sha1', 'not-the-coturn-secret')
        .update(server!.username!)
        .digest('base64'),
    };
    expect(await gatheredTypes([forged])).toEqual([]);
  }, 60_000);
});
