import { callerTexts } from '@locus/contract';
import { connect, createServer, type AddressInfo, type Socket } from 'node:net';
import type { BrowserContext, Page, Request, Response } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from '../support/browser';
import { startAuthEnvironment, type AuthEnvironment } from './auth-support';
import { trackingHelpers } from './tracking-support';

// Issue 23, point 1: once a caller has opened their link, the page opens again without a
// network. A service worker scoped to the caller's page (`/share-sw.js`, scope `/share`) keeps
// its HTML, its script and the answer about the link; a reload, or the link opened again, on a
// dead network shows the page in the link's language, and the positions it takes wait in its
// queue until the network returns. The console is never under that worker.

let env: AuthEnvironment;

beforeAll(async () => {
  env = await startAuthEnvironment();
});

afterAll(async () => {
  await env?.close();
});

const { textedSession, callerPhone, endActiveSessions } = trackingHelpers(() => env);

afterEach(() => endActiveSessions());

const es = callerTexts.es.page;
const madrid = { latitude: 40.4168, longitude: -3.7038 };
/** Where the caller walks to while offline. */
const moved = { latitude: 40.4172, longitude: -3.7033 };

/** Waits until the page is controlled by the caller page's service worker. */
async function underServiceWorker(page: Page, origin = env.api.url): Promise<void> {
  await page.evaluate(() => navigator.serviceWorker.ready);
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  expect(await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL)).toBe(
    `${origin}/share-sw.js`,
  );
}

/** How many positions the page says it keeps until the network returns, or 0. */
async function queuedShown(page: Page): Promise<number> {
  const text = await page.locator('body').innerText();
  for (let count = 1; count <= 100; count += 1) {
    if (text.includes(es.queuedFixes(count))) return count;
  }
  return 0;
}

/**
 * The page as the worker answered it from the phone's cache. The network's answer to
 * `/share?token=…` always announces the link lookup (`Link: rel=preload`), the cached copy of
 * `share.html` never does: a navigation from the worker without it did not come from the network.
 */
function expectFromCache(response: Response | null): void {
  expect(response?.fromServiceWorker()).toBe(true);
  expect(response?.headers()['link']).toBeUndefined();
}

/**
 * What the worker itself asked the network for (Chromium reports it with the context's
 * requests): the paths it got answers for, with when each request started, and its failures.
 */
function workerTraffic(context: BrowserContext) {
  const answered: { path: string; startedAt: number }[] = [];
  const failed: string[] = [];
  const path = (request: Request) => new URL(request.url()).pathname;
  context.on('requestfinished', (request) => {
    if (request.serviceWorker()) {
      answered.push({ path: path(request), startedAt: request.timing().startTime });
    }
  });
  context.on('requestfailed', (request) => {
    if (request.serviceWorker()) failed.push(`${path(request)}: ${request.failure()?.errorText}`);
  });
  return {
    answered: (since = 0) =>
      answered.filter(({ startedAt }) => startedAt >= since).map(({ path }) => path),
    failed,
  };
}

/**
 * The API behind a TCP relay of its own (another origin, so another phone's cache), which can
 * stall as a network with one bar of signal does: it takes the browser's bytes and nothing
 * comes back, on the connections the browser keeps open and on new ones alike.
 */
async function stallableRelay(apiUrl: string) {
  const api = new URL(apiUrl);
  let stalled = false;
  let swallowed = 0;
  const sockets = new Set<Socket>();
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  };
  const server = createServer((client) => {
    const upstream = connect(Number(api.port), api.hostname);
    track(client);
    track(upstream);
    const pipe = (from: Socket, to: Socket) => {
      from.on('data', (chunk: Buffer) => {
        if (stalled) swallowed += chunk.length;
        else to.write(chunk);
      });
      from.on('end', () => to.end());
      from.on('close', () => to.destroy());
    };
    pipe(client, upstream);
    pipe(upstream, client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    stall: () => {
      stalled = true;
    },
    swallowed: () => swallowed,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

describe("the caller's page without a network", () => {
  it('opens again from the phone after its first load, in the link language, and keeps what it takes until the network returns', async () => {
    const session = await textedSession('+12025550191', 'es');
    const caller = await callerPhone({ grant: true, ...madrid });
    const worker = workerTraffic(caller.context);

    // First load, online: the page from the network, then its worker installs itself and
    // keeps the page, its script and the answer about this link.
    const first = await caller.page.goto(session.link);
    expect(first?.fromServiceWorker()).toBe(false);
    await caller.page.getByRole('button', { name: es.shareButton }).waitFor();
    await underServiceWorker(caller.page);
    await expect
      .poll(() => worker.answered())
      .toEqual(expect.arrayContaining(['/share-sw.js', '/share.html', '/api/v1/caller/link']));

    // A reload online, under the worker, is the network's page (a deploy reaches the caller at
    // once), and its preloaded link lookup still serves the page's own: one lookup.
    const lookups: string[] = [];
    caller.page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/v1/caller/link') lookups.push(request.url());
    });
    const online = await caller.page.reload();
    expect(online?.fromServiceWorker()).toBe(true);
    expect(online?.headers()['link']).toContain('/api/v1/caller/link?token=');
    await caller.page.getByRole('button', { name: es.shareButton }).waitFor();
    expect(lookups).toHaveLength(1);

    // The network goes. A reload shows the page from the phone, in Spanish, with its button.
    // Playwright's offline mode reaches the worker too: whatever it tries fails.
    const wentOffline = Date.now();
    await caller.context.setOffline(true);
    const reloaded = await caller.page.reload();
    expectFromCache(reloaded);
    await caller.page.getByText(es.requestFrom('Demo County 911')).waitFor();
    expect(await caller.page.getAttribute('html', 'lang')).toBe('es');
    expect(await caller.page.title()).toBe(es.documentTitle);
    await expectAccessible(caller.page, 'es: opened offline from the phone');

    // The caller taps Share: positions are taken and kept on the phone, and it says so.
    await caller.page.getByRole('button', { name: es.shareButton }).click();
    await caller.page.getByText(es.sharingTitle).first().waitFor();
    await expect.poll(() => queuedShown(caller.page)).toBeGreaterThan(0);
    await expectAccessible(caller.page, 'es: sharing offline, positions kept');

    // The tab goes away; the caller opens the link again from the text, still offline: the page
    // opens from the phone and goes on sharing (they never tapped Stop), with what it kept.
    await caller.page.close();
    const reopened = await caller.context.newPage();
    expectFromCache(await reopened.goto(session.link));
    await reopened.getByText(es.sharingTitle).first().waitFor();
    expect(await reopened.getByRole('button', { name: es.shareButton }).count()).toBe(0);
    await caller.context.setGeolocation({ ...moved, accuracy: 10 });
    await expect.poll(() => queuedShown(reopened)).toBeGreaterThan(1);
    const kept = await queuedShown(reopened);
    await expectAccessible(reopened, 'es: opened again offline, still sharing');
    // Nothing the worker asked the network for while it was down got an answer: the page, its
    // script and the link's answer all came from the phone.
    expect(worker.answered(wentOffline)).toEqual([]);
    expect(worker.failed).toContain('/share: net::ERR_INTERNET_DISCONNECTED');
    expect(worker.failed.every((failure) => failure.endsWith('ERR_INTERNET_DISCONNECTED'))).toBe(
      true,
    );
    expect(session.dispatcher.of('new-location-available')).toHaveLength(0);

    // The network returns: what the phone kept reaches the dispatcher, oldest first.
    await caller.context.setOffline(false);
    const delivered = await session.dispatcher.count('new-location-available', kept);
    expect(delivered[0]!.data).toMatchObject(madrid);
    expect(delivered.at(-1)!.data).toMatchObject(moved);
    await reopened.getByText(es.connected, { exact: true }).waitFor();
    await expect.poll(() => queuedShown(reopened)).toBe(0);

    await session.dispatcher.close();
    await caller.context.close();
  }, 90_000);

  it('on a network that takes requests and answers none, opens from the phone after a few seconds', async () => {
    const session = await textedSession('+12025550192', 'es');
    const network = await stallableRelay(env.api.url);
    const link = session.link.replace(env.api.url, network.url);
    const caller = await callerPhone({ grant: true, ...madrid });
    await caller.page.goto(link);
    await caller.page.getByRole('button', { name: es.shareButton }).waitFor();
    await underServiceWorker(caller.page, network.url);

    // One bar of signal: the phone believes it is online, but nothing comes back, neither the
    // page nor its link's answer. The worker asks the network first, gives up on each after
    // 3 s, and answers from the phone: the caller does not wait on a blank page.
    network.stall();
    const started = Date.now();
    expectFromCache(await caller.page.reload());
    await caller.page.getByText(es.requestFrom('Demo County 911')).waitFor();
    await expectAccessible(caller.page, 'es: opened from the phone on a stalled network');
    expect(Date.now() - started).toBeGreaterThanOrEqual(2 * 3_000);
    expect(await caller.page.evaluate(() => navigator.onLine)).toBe(true);
    expect(network.swallowed()).toBeGreaterThan(0);

    await caller.context.close();
    await network.close();
    await session.dispatcher.close();
  });

  it("never controls the console: the worker's scope is the caller's page alone", async () => {
    const caller = await callerPhone();
    await caller.page.goto(`${env.api.url}/share`);
    await caller.page.getByText(callerTexts.en.page.invalidTitle).waitFor();
    await underServiceWorker(caller.page);

    for (const path of ['/', '/dashboard', '/about']) {
      const answer = await caller.page.goto(`${env.api.url}${path}`);
      expect(answer?.fromServiceWorker(), path).toBe(false);
      await caller.page.waitForLoadState('load');
      expect(await caller.page.evaluate(() => navigator.serviceWorker.controller), path).toBeNull();
    }
    const scopes = await caller.page.evaluate(async () =>
      (await navigator.serviceWorker.getRegistrations()).map((registration) => registration.scope),
    );
    expect(scopes).toEqual([`${env.api.url}/share`]);

    // Offline, the console is not there at all: nothing of it was kept.
    await caller.context.setOffline(true);
    await expect(caller.page.goto(`${env.api.url}/dashboard`)).rejects.toThrow(
      /ERR_INTERNET_DISCONNECTED/,
    );
    await caller.context.close();
  });
});
