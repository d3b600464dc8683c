import { callerTexts, smsLanguages } from '@locus/contract';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from '../support/browser';
import { startAuthEnvironment, type AuthEnvironment } from './auth-support';
import { trackingHelpers } from './tracking-support';

// The caller's page as a caller lives it: its own small entry (share.html), in their language;
// a network that drops while they move, and a page reloaded while it is down, lose nothing; and
// the dispatcher learns what the phone says about itself (battery, page in the background).

let env: AuthEnvironment;

beforeAll(async () => {
  env = await startAuthEnvironment();
});

afterAll(async () => {
  await env?.close();
});

const { textedSession, dispatcherPage, callerPhone, endActiveSessions } = trackingHelpers(
  () => env,
);

afterEach(() => endActiveSessions());

/** The page's `lang`: the language, and for Chinese its script. */
const pageLang = { en: 'en', es: 'es', fr: 'fr', zh: 'zh-Hans' } as const;

/** Every script the page asked for, by path. */
function scriptRequests(page: Page): string[] {
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
  });
  return scripts;
}

describe("the caller's page", () => {
  it.each(smsLanguages)(
    '%s: from its own entry, consent first, then sharing, until the dispatcher ends it',
    async (language) => {
      const number = `+1202555017${smsLanguages.indexOf(language)}`;
      const t = callerTexts[language].page;
      const session = await textedSession(number, language);
      const caller = await callerPhone({ grant: true, latitude: 40.7128, longitude: -74.006 });
      const scripts = scriptRequests(caller.page);
      const linkLookups: string[] = [];
      caller.page.on('request', (request) => {
        if (request.url().includes('/api/v1/caller/link')) linkLookups.push(request.url());
      });

      await caller.page.goto(session.link);
      await caller.page.getByText(t.requestFrom('Demo County 911')).waitFor();
      expect(await caller.page.getAttribute('html', 'lang')).toBe(pageLang[language]);
      expect(await caller.page.title()).toBe(t.documentTitle);
      // One script, the caller's own: none of the console's code. The link was asked about
      // once: the page's fetch took the answer the server had the browser preload.
      expect(scripts).toHaveLength(1);
      expect(scripts[0]).toMatch(/^\/assets\/share-[\w-]+\.js$/);
      expect(linkLookups).toHaveLength(1);
      // Nothing leaves the phone before the tap.
      expect(session.dispatcher.of('new-location-available')).toHaveLength(0);
      await expectAccessible(caller.page, `${language}: consent`);

      // By keyboard alone: the first Tab reaches the button (nothing comes before it), then Enter.
      const share = caller.page.getByRole('button', { name: t.shareButton });
      await caller.page.keyboard.press('Tab');
      expect(await share.evaluate((el) => el === document.activeElement)).toBe(true);
      await caller.page.keyboard.press('Enter');
      await caller.page.getByText(t.sharingTitle).first().waitFor();
      const fix = await session.dispatcher.event('new-location-available');
      expect(fix.data).toMatchObject({ latitude: 40.7128, longitude: -74.006 });
      await caller.page.getByText(t.connected, { exact: true }).waitFor();
      await expectAccessible(caller.page, `${language}: sharing`);
      await caller.page.getByText(t.debugTitle).click();
      await expectAccessible(caller.page, `${language}: sharing, technical details open`);

      await session.end();
      await caller.page.getByText(t.endedTitle).waitFor();
      await caller.page.getByText(t.callForHelp).waitFor();
      await expectAccessible(caller.page, `${language}: ended`);
      await session.dispatcher.close();
      await caller.context.close();
    },
    // Three axe runs on a phone-sized page, on a machine that may be running other browsers.
    90_000,
  );

  it('shows a link that does not work (malformed, unknown) without naming any agency', async () => {
    const caller = await callerPhone();
    const en = callerTexts.en.page;
    for (const query of ['', '?token=short', `?token=${'A'.repeat(43)}`]) {
      await caller.page.goto(`${env.api.url}/share${query}`);
      await caller.page.getByText(en.invalidTitle).waitFor();
      expect(await caller.page.locator('body').innerText()).not.toContain('Demo County');
      await expectAccessible(caller.page, `invalid link ${query}`);
      expect(await caller.page.getByRole('button', { name: en.shareButton }).count()).toBe(0);
    }
    await caller.context.close();
  }, 60_000);
});

/** Records, in the phone's local storage, every position the browser hands the page. */
async function recordPositions(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    const geolocation = navigator.geolocation;
    const watch = geolocation.watchPosition.bind(geolocation);
    geolocation.watchPosition = (success, error, options) =>
      watch(
        (position) => {
          const taken = JSON.parse(localStorage.getItem('test.taken') ?? '[]') as number[];
          taken.push(Math.round(position.timestamp));
          localStorage.setItem('test.taken', JSON.stringify(taken));
          success(position);
        },
        error,
        options,
      );
  });
}

/** Distinct positions the pages of this phone were given, in order. */
async function positionsTaken(page: Page): Promise<number[]> {
  const taken = await page.evaluate(
    () => JSON.parse(localStorage.getItem('test.taken') ?? '[]') as number[],
  );
  return [...new Set(taken)].sort((a, b) => a - b);
}

describe('when the network fails', () => {
  it('a caller whose network drops for 20 s while moving, and whose page is closed and opened again while it is down, delivers every fix taken, in order, exactly once', async () => {
    const number = '+12025550181';
    const en = callerTexts.en.page;
    const session = await textedSession(number, 'en');
    const dashboard = await dispatcherPage();
    await dashboard.page.getByRole('banner').getByText(`Locating ${number}`).waitFor();
    const caller = await callerPhone({ grant: true });
    await recordPositions(caller.context);

    let step = 0;
    const move = () => {
      step += 1;
      return caller.context.setGeolocation({
        latitude: 38.8977 + step * 0.0002,
        longitude: -77.0365 + step * 0.0002,
        accuracy: 8,
      });
    };
    /** Moves once a second for `seconds` (the pace of the walk, not a wait for anything). */
    const walk = async (seconds: number) => {
      for (let i = 0; i < seconds; i += 1) {
        await move();
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
    };

    await caller.page.goto(session.link);
    await caller.page.getByRole('button', { name: en.shareButton }).click();
    await session.dispatcher.event('new-location-available');
    // The page has put itself in the phone's cache (its service worker) before the network drops.
    await caller.page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
    await walk(3);

    // The network drops: the page keeps taking positions and says it keeps them.
    const wentOffline = Date.now();
    await caller.context.setOffline(true);
    await caller.page.getByRole('main').getByText(en.reconnecting).waitFor();
    await walk(10);
    const keptBeforeReload = (await positionsTaken(caller.page)).filter((t) => t >= wentOffline);
    expect(keptBeforeReload.length).toBeGreaterThanOrEqual(5);
    await caller.page.getByText(en.queuedFixes(keptBeforeReload.length)).waitFor();
    await expectAccessible(caller.page, 'offline, positions kept');

    // The tab is closed and the link opened again while the network is down. (Chromium's
    // offline emulation keeps the old document alive through a failed reload, and lets its
    // sockets through; a closed tab and a new one loading the link is what a phone really does.)
    // The page comes from the phone's cache, goes on sharing without asking again, and keeps
    // both what the earlier page kept and what it takes now.
    await caller.page.close();
    const page = await caller.context.newPage();
    const reopened = await page.goto(session.link);
    expect(reopened?.fromServiceWorker()).toBe(true);
    await page.getByText(en.sharingTitle).first().waitFor();
    await expectAccessible(page, 'offline, opened again from the phone');
    await walk(10);
    const cameOnline = Date.now();
    await caller.context.setOffline(false);

    // The network is back: the page sends everything it kept, oldest first, then goes on live.
    await page.getByText(en.connected, { exact: true }).waitFor();
    await walk(2);
    const taken = await positionsTaken(page);
    expect(taken.filter((t) => t >= wentOffline && t < cameOnline).length).toBeGreaterThan(
      keptBeforeReload.length,
    );
    const toCapture = (ms: number) => new Date(ms).toISOString();
    await expect
      .poll(() => session.dispatcher.countOf('new-location-available'), { timeout: 20_000 })
      .toBeGreaterThanOrEqual(taken.length);

    const live = session.dispatcher.of('new-location-available');
    expect(live.map((frame) => frame.data.dateTimeCaptured)).toEqual(taken.map(toCapture));
    const seqs = live.map((frame) => frame.data.seq!);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    // A fix that waited on the phone at least `delayedFixAfterMs` (10 s) is marked late; one
    // taken before the outage or after it is not. (One taken in the outage's last seconds may
    // have waited less: it is not checked.)
    for (const frame of live) {
      const capturedAt = Date.parse(String(frame.data.dateTimeCaptured));
      const when = String(frame.data.dateTimeCaptured);
      if (capturedAt < wentOffline || capturedAt >= cameOnline)
        expect(frame.data.delayMs, when).toBeUndefined();
      else if (keptBeforeReload.includes(capturedAt) || capturedAt < cameOnline - 11_000)
        expect(frame.data.delayMs, when).toBeGreaterThanOrEqual(10_000);
    }

    // Stored once each, in order.
    await env.api.app.locus.writer.flush();
    const stored = await env.database.db
      .selectFrom('location_fixes')
      .select(['seq', 'captured_at'])
      .where('session_id', '=', session.sessionId)
      .orderBy('seq')
      .execute();
    expect(stored.map((row) => row.captured_at.toISOString())).toEqual(taken.map(toCapture));

    // The dispatcher's console has them all, and says some came late.
    await expect
      .poll(() => dashboard.page.getByTestId('fix-count').innerText(), { timeout: 10_000 })
      .toBe(`${taken.length} fixes`);
    await dashboard.page
      .getByRole('region', { name: 'Log' })
      .getByText(/Delayed locations received/)
      .waitFor();

    await session.dispatcher.close();
    await caller.context.close();
    await dashboard.context.close();
  }, 120_000);
});

describe('a position the server will never take', () => {
  it('is dropped with a note on the page, and never sent again', async () => {
    const number = '+12025550183';
    const en = callerTexts.en.page;
    const session = await textedSession(number, 'en');
    const caller = await callerPhone({ grant: true });
    const token = new URL(session.link).searchParams.get('token')!;

    // A phone that kept a position for two days (the page was left queued, offline).
    await caller.page.goto(`${env.api.url}/share`);
    const twoDaysAgo = Date.now() - 2 * 24 * 3_600_000;
    await caller.page.evaluate(
      ({ token, capturedAt }) =>
        new Promise<void>((resolve, reject) => {
          const open = indexedDB.open('locus-caller', 1);
          open.onupgradeneeded = () => open.result.createObjectStore('fixes');
          open.onsuccess = () => {
            const tx = open.result.transaction('fixes', 'readwrite');
            const fix = { latitude: 38.9, longitude: -77.03, accuracy: 9, capturedAt, n: 1 };
            tx.objectStore('fixes').put(
              { n: 1, fix, takenAt: capturedAt },
              `${token}|000000000001`,
            );
            tx.oncomplete = () => resolve();
            tx.onerror = () => reject(tx.error);
          };
        }),
      { token, capturedAt: twoDaysAgo },
    );

    // The page sends what it kept as soon as it opens; the server refuses it for good.
    await caller.page.goto(session.link);
    await caller.page.getByText(en.requestFrom('Demo County 911')).waitFor();
    await caller.page.getByText(en.debugTitle).click();
    await caller.page
      .getByText(
        /refused by the server and dropped: queuedMs: The fix waited on the phone too long/,
      )
      .waitFor();
    await caller.page.getByText('queued: 0').waitFor();
    await expectAccessible(caller.page, 'a kept position refused, technical details open');
    const left = await caller.page.evaluate(
      () =>
        new Promise<number>((resolve) => {
          const open = indexedDB.open('locus-caller', 1);
          open.onsuccess = () => {
            const count = open.result.transaction('fixes').objectStore('fixes').count();
            count.onsuccess = () => resolve(count.result);
          };
        }),
    );
    expect(left).toBe(0);
    expect(session.dispatcher.of('new-location-available')).toHaveLength(0);
    await env.api.app.locus.writer.flush();
    const stored = await env.database.db
      .selectFrom('location_fixes')
      .select('seq')
      .where('session_id', '=', session.sessionId)
      .execute();
    expect(stored).toHaveLength(0);
    await session.dispatcher.close();
    await caller.context.close();
  });
});

describe("the caller's phone, as the dispatcher sees it", () => {
  it('battery level and the page going to the background reach the dashboard', async () => {
    const number = '+12025550182';
    const en = callerTexts.en.page;
    const session = await textedSession(number, 'en');
    const dashboard = await dispatcherPage();
    await dashboard.page.getByRole('banner').getByText(`Locating ${number}`).waitFor();

    const caller = await callerPhone({ grant: true });
    // The phone's battery (Chromium has the API, but this machine has no battery to report).
    await caller.context.addInitScript(() => {
      const battery = Object.assign(new EventTarget(), { level: 0.07, charging: false });
      Object.assign(window, { testBattery: battery });
      Object.defineProperty(navigator, 'getBattery', { value: () => Promise.resolve(battery) });
    });
    await caller.page.goto(session.link);
    await caller.page.getByRole('button', { name: en.shareButton }).click();
    await caller.page.getByText(en.sharingTitle).first().waitFor();

    const phone = dashboard.page.getByRole('region', { name: "Caller's phone" });
    await phone.getByText('Battery 7 %').waitFor();
    await phone.getByText('Page open on screen').waitFor();

    // The caller switches to another app. (Headless Chromium never hides a page, so the test
    // plays the browser's part: the page becomes hidden and is told so.)
    const hiddenAt = new Date();
    await caller.page.evaluate(() => {
      Object.defineProperty(document, 'visibilityState', { configurable: true, value: 'hidden' });
      Object.defineProperty(document, 'hidden', { configurable: true, value: true });
      document.dispatchEvent(new Event('visibilitychange'));
    });
    const since = await phone.getByText(/^Page in background since \d\d:\d\d:\d\d$/).innerText();
    const [hours, minutes, seconds] = since.slice(-8).split(':').map(Number);
    const shown = new Date(hiddenAt);
    shown.setHours(hours!, minutes!, seconds!);
    expect(Math.abs(shown.getTime() - hiddenAt.getTime())).toBeLessThan(5_000);

    // The battery runs down further.
    await caller.page.evaluate(() => {
      const battery = (window as unknown as { testBattery: EventTarget & { level: number } })
        .testBattery;
      battery.level = 0.05;
      battery.dispatchEvent(new Event('levelchange'));
    });
    await phone.getByText('Battery 5 %').waitFor();
    const panelId = await phone.getAttribute('aria-labelledby');
    await expectAccessible(
      dashboard.page,
      "dashboard: Caller's phone",
      `[aria-labelledby="${panelId}"]`,
    );

    await session.dispatcher.close();
    await caller.context.close();
    await dashboard.context.close();
  }, 60_000); // A signed-in dashboard and a caller's phone, on a machine that may run others.
});
