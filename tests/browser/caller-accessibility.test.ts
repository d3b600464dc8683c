import { callerTexts, smsLanguages, type SmsLanguage } from '@locus/contract';
import type { BrowserContext, Page, Route } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, focusRingOf, type FocusRing } from '../support/browser';
import { startAuthEnvironment, type AuthEnvironment } from './auth-support';
import { trackingHelpers } from './tracking-support';

// Issue 24 on the caller's page, the page a member of the public opens from a text message in an
// emergency, on a cheap phone: WCAG 2.1 AA in every state and every language. Each state is
// checked with axe, and for what axe cannot see: the consent button first, 44 × 44 px targets,
// reflow at 320 px and at 200 % zoom, a focus ring of 3:1, the page's `lang`, and what screen
// readers are told (politely for news, at once for errors). The text offer comes after 1.5 s
// here instead of 20 s (caller-text-fallback.test.ts keeps the real delay).

const AFTER_MS = 1_500;

let env: AuthEnvironment;

beforeAll(async () => {
  env = await startAuthEnvironment({ CALLER_TEXT_FALLBACK_AFTER_MS: String(AFTER_MS) });
});

afterAll(async () => {
  await env?.close();
});

const { textedSession, endActiveSessions } = trackingHelpers(() => env);

afterEach(() => endActiveSessions());

/** The page's `lang` for each language (the texts' `locale` is for formatting times). */
const pageLang: Record<SmsLanguage, string> = { en: 'en', es: 'es', fr: 'fr', zh: 'zh-Hans' };

/** A phone 360 px wide, as `callerPhone` makes it, with what a test needs on top. */
async function phone(
  options: { grant?: boolean; serviceWorkers?: 'allow' | 'block'; init?: () => void } = {},
): Promise<{ page: Page; context: BrowserContext }> {
  const context = await env.browser.newContext({
    viewport: { width: 360, height: 740 },
    isMobile: true,
    hasTouch: true,
    serviceWorkers: options.serviceWorkers ?? 'allow',
    ...(options.grant
      ? {
          permissions: ['geolocation'],
          geolocation: { latitude: 38.8977, longitude: -77.0365, accuracy: 15 },
        }
      : {}),
  });
  context.setDefaultTimeout(10_000);
  if (options.init) await context.addInitScript(options.init);
  return { page: await context.newPage(), context };
}

/** The page's question about its link. */
const isLinkLookup = (url: URL) => url.pathname === '/api/v1/caller/link';

/** What the page's polite live region says now. */
function politeStatus(page: Page): Promise<string> {
  return page.locator('.frame > p[role="status"]').innerText();
}

/** What the page's alert region says now. */
function alertText(page: Page): Promise<string> {
  return page.locator('.frame > p[role="alert"]').innerText();
}

/** Elements a caller can tab to, as a CSS selector (what a finger can tap on this page). */
const tabbable =
  'a[href], button:not([disabled]), summary, input, select, textarea, [tabindex]:not([tabindex="-1"])';

interface Target {
  name: string;
  width: number;
  height: number;
  left: number;
  right: number;
}

/** Every visible element a caller can tab to, with its box. */
function targets(page: Page): Promise<Target[]> {
  return page.$$eval(tabbable, (elements) =>
    elements
      .map((element) => ({ element, box: element.getBoundingClientRect() }))
      .filter(({ box }) => box.width > 0 && box.height > 0)
      .map(({ element, box }) => ({
        name: (element.textContent ?? '').trim().slice(0, 40) || element.tagName,
        width: box.width,
        height: box.height,
        left: box.left,
        right: box.right,
      })),
  );
}

/**
 * The focus ring of every element a caller can tab to: shown (`:focus-visible` after a key
 * press), at least 2 px, and at least 3:1 against the background right behind it.
 */
async function focusRings(page: Page): Promise<FocusRing[]> {
  // After a key press the browser shows focus rings for focus moved from script, as for Tab.
  await page.keyboard.press('Tab');
  const rings: FocusRing[] = [];
  for (const element of await page.locator(tabbable).all()) {
    if (((await element.boundingBox())?.width ?? 0) === 0) continue;
    await element.focus();
    rings.push(await element.evaluate(focusRingOf));
  }
  return rings;
}

/** Horizontal overflow at a width: the page's, and any control or button label cut off. */
async function overflowAt(page: Page, width: number) {
  await page.setViewportSize({ width, height: 2 * width });
  return page.evaluate((width) => {
    const cut = [...document.querySelectorAll('.btn span, .lang, h1, h2, p, dd, li')]
      .filter((element) => !element.matches('.visually-hidden'))
      .filter((element) => element.scrollWidth > element.clientWidth + 1)
      .map((element) => (element.textContent ?? '').slice(0, 40));
    const outside = [...document.querySelectorAll('a[href], button, summary')]
      .map((element) => ({ element, box: element.getBoundingClientRect() }))
      .filter(({ box }) => box.width > 0 && (box.left < 0 || box.right > width + 0.5))
      .map(({ element }) => (element.textContent ?? '').slice(0, 40));
    return { scrollWidth: document.documentElement.scrollWidth, cut, outside };
  }, width);
}

/**
 * Everything a state must be, beyond what the test waited for: axe finds nothing; every control
 * is at least 44 × 44 px at 360 px; nothing scrolls sideways at 320 px nor at 200 % zoom of a
 * 320 px screen (160 CSS px), where every control stays on screen and no label is cut; every focus
 * ring is visible at 3:1; the document says its language.
 */
async function expectUsable(page: Page, language: SmsLanguage, state: string): Promise<void> {
  const label = `${language}: ${state}`;
  await expectAccessible(page, label);
  expect.soft(await page.getAttribute('html', 'lang'), `${label}: lang`).toBe(pageLang[language]);
  expect.soft(await page.getAttribute('html', 'dir'), `${label}: dir`).toBe('ltr');
  expect.soft(await page.title(), `${label}: title`).toBe(callerTexts[language].page.documentTitle);

  const small = (await targets(page)).filter(({ width, height }) => width < 44 || height < 44);
  expect.soft(small, `${label}: targets under 44 × 44 px`).toEqual([]);

  const rings = await focusRings(page);
  expect.soft(rings.length, `${label}: something to focus`).toBeGreaterThan(0);
  const weak = rings.filter(
    (ring) => !ring.visible || ring.style === 'none' || ring.width < 2 || ring.contrast < 3,
  );
  expect.soft(weak, `${label}: focus rings`).toEqual([]);

  for (const width of [320, 160]) {
    const { scrollWidth, cut, outside } = await overflowAt(page, width);
    expect.soft(scrollWidth, `${label}: scroll width at ${width} px`).toBeLessThanOrEqual(width);
    expect.soft(cut, `${label}: cut off at ${width} px`).toEqual([]);
    expect.soft(outside, `${label}: off screen at ${width} px`).toEqual([]);
  }
  await page.setViewportSize({ width: 360, height: 740 });
}

/**
 * Replaces the browser's watch so that a test can make the phone fail to find itself
 * (`window.testPositionError(2)`), as a phone indoors does; real positions still come through.
 * The test is the phone's only source of failures: an error Chromium raises on its own (its
 * emulated position is always there, yet a CI run once saw a POSITION_UNAVAILABLE arrive
 * straight after an emulated fix while offline) is kept in `window.browserPositionErrors`
 * instead of reaching the page, so that every sentence the test reads is one it caused.
 */
function failingGeolocation() {
  const geolocation = navigator.geolocation;
  const watch = geolocation.watchPosition.bind(geolocation);
  const browserPositionErrors: number[] = [];
  Object.assign(window, { browserPositionErrors });
  geolocation.watchPosition = (success, error, options) => {
    Object.assign(window, {
      testPositionError: (code: number) =>
        error?.({ code, message: 'test' } as GeolocationPositionError),
    });
    return watch(success, (browserError) => browserPositionErrors.push(browserError.code), options);
  };
}

/** A browser without location (an in-app browser, an old phone). */
function noGeolocation() {
  delete (Navigator.prototype as { geolocation?: unknown }).geolocation;
}

describe("the caller's page, in every language", () => {
  it.each(smsLanguages)(
    '%s: consent, refusal, no location, sharing, a lost fix, offline with the text offer, stopped and ended are all accessible',
    async (language) => {
      const t = callerTexts[language].page;
      const session = await textedSession(`+1202555024${smsLanguages.indexOf(language)}`, language);

      // The request, on a phone that refuses location.
      const refusing = await phone();
      const { page } = refusing;
      await page.goto(session.link);
      await page.getByText(t.requestFrom('Demo County 911')).waitFor();
      // The consent button is the first thing a caller reaches: by Tab, and in the page's order.
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe(t.shareButton);
      expect(await page.$eval(tabbable, (first) => first.textContent)).toBe(t.shareButton);
      await expectUsable(page, language, 'consent');

      // The caller switches language and back: `lang`, title and the pressed button follow.
      for (const other of [...smsLanguages.filter((code) => code !== language), language]) {
        const name = callerTexts[other].languageName;
        await page.getByRole('button', { name, exact: true }).click();
        await page.getByText(callerTexts[other].page.requestFrom('Demo County 911')).waitFor();
        expect(await page.getAttribute('html', 'lang')).toBe(pageLang[other]);
        expect(await page.title()).toBe(callerTexts[other].page.documentTitle);
        expect(
          await page.getByRole('button', { name, exact: true }).getAttribute('aria-pressed'),
        ).toBe('true');
      }

      // Share, by keyboard: refused. Said at once, with the help to allow it.
      await page.getByRole('button', { name: t.shareButton }).focus();
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { name: t.deniedTitle }).waitFor();
      await expect.poll(() => alertText(page)).toBe(t.deniedBody);
      // The button the caller pressed is gone: focus is on the new view's title.
      expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('H1');
      await page.getByRole('listitem').first().waitFor();
      await expectUsable(page, language, 'location refused, with help');
      await refusing.context.close();

      // A browser without location.
      const old = await phone({ grant: true, init: noGeolocation });
      await old.page.goto(session.link);
      await old.page.getByRole('button', { name: t.shareButton }).click();
      await old.page.getByRole('heading', { name: t.unsupportedTitle }).waitFor();
      await expect.poll(() => alertText(old.page)).toBe(t.unsupportedBody);
      await expectUsable(old.page, language, 'no location in this browser');
      await old.context.close();

      // Sharing: "Your location" with its Plus Code, said politely once, not per position.
      const caller = await phone({ grant: true, init: failingGeolocation });
      const { context } = caller;
      const sharingPage = caller.page;
      await sharingPage.goto(session.link);
      await sharingPage.getByRole('button', { name: t.shareButton }).click();
      const here = sharingPage.getByRole('region', { name: t.yourLocationTitle });
      await here.locator('dd.pluscode').waitFor();
      await sharingPage.getByRole('main').getByText(t.connected, { exact: true }).waitFor();
      await expect.poll(() => politeStatus(sharingPage)).toBe(t.sharingTitle);
      await expectUsable(sharingPage, language, 'sharing, your location shown');

      // The phone loses its position: said politely (indoors it can come back at every watch
      // timeout, while the caller is on the phone), and in words beside an icon on screen.
      await sharingPage.evaluate(() =>
        (window as unknown as { testPositionError(code: number): void }).testPositionError(2),
      );
      await sharingPage.getByText(t.positionUnavailable).first().waitFor();
      await expect.poll(() => politeStatus(sharingPage)).toBe(t.positionUnavailable);
      expect(await alertText(sharingPage)).toBe('');
      await expectUsable(sharingPage, language, 'position lost');
      await context.setGeolocation({ latitude: 38.8981, longitude: -77.0361, accuracy: 11 });
      await here.getByText('38.89810, -77.03610').waitFor();
      await expect.poll(() => politeStatus(sharingPage)).not.toBe(t.positionUnavailable);

      // The network goes: said politely; after a while, the offer to send the position by text.
      await context.setOffline(true);
      await sharingPage.getByRole('main').getByText(t.reconnecting).waitFor();
      await expect.poll(() => politeStatus(sharingPage)).toBe(t.reconnecting);
      await context.setGeolocation({ latitude: 38.8977, longitude: -77.0365, accuracy: 12 });
      await here.getByText('38.89770, -77.03650').waitFor();
      // Positions keep coming and the status stays as it was: no announcement per position.
      expect(await politeStatus(sharingPage)).toBe(t.reconnecting);
      const offer = sharingPage.getByRole('link', { name: t.sendByTextButton });
      await offer.waitFor({ timeout: AFTER_MS + 15_000 });
      await expectUsable(sharingPage, language, 'offline, sending by text offered');

      // The network is back: sharing again, said so; the offer goes.
      await context.setOffline(false);
      await offer.waitFor({ state: 'detached', timeout: 20_000 });
      await expect.poll(() => politeStatus(sharingPage)).toBe(t.sharingTitle);

      // Stop sharing, by keyboard: said politely; focus on the new title.
      await sharingPage.getByRole('button', { name: t.stopButton }).focus();
      await sharingPage.keyboard.press('Enter');
      await sharingPage.getByRole('heading', { name: t.stoppedTitle }).waitFor();
      await expect.poll(() => politeStatus(sharingPage)).toBe(t.stoppedBody);
      expect(await sharingPage.evaluate(() => document.activeElement?.textContent)).toBe(
        t.stoppedTitle,
      );
      await expectUsable(sharingPage, language, 'stopped');

      // Shares again; the dispatcher ends the request.
      await sharingPage.getByRole('button', { name: t.shareAgainButton }).click();
      await expect.poll(() => politeStatus(sharingPage)).toBe(t.sharingTitle);
      await session.end();
      await sharingPage.getByRole('heading', { name: t.endedTitle }).waitFor();
      await expect.poll(() => politeStatus(sharingPage)).toBe(t.endedBody);
      await expectUsable(sharingPage, language, 'ended by the dispatcher');

      await session.dispatcher.close();
      await context.close();
    },
    300_000,
  );

  /** The link's answer, as the API would give it, for a token that looks real. */
  const token = 'A'.repeat(43);
  const answers = {
    expired: { title: 'expiredTitle', status: 'expired' },
    'opted out': { title: 'optedOutTitle', status: 'stopped' },
    ended: { title: 'endedTitle', status: 'ended' },
    unknown: { title: 'invalidTitle', status: 'invalid' },
  } as const;

  it.each(smsLanguages)(
    '%s: a link that no longer works, or a page that did not load, is accessible',
    async (language) => {
      const t = callerTexts[language].page;
      // No service worker: the test answers the page's own lookup.
      const { page, context } = await phone({ serviceWorkers: 'block' });
      let answer: (route: Route) => Promise<void> = () => Promise.resolve();
      await page.route(isLinkLookup, (route) => answer(route));

      for (const [state, { title, status }] of Object.entries(answers)) {
        answer = (route) => route.fulfill({ json: { status, language } });
        await page.goto(`${env.api.url}/share?token=${token}`);
        await page.getByRole('heading', { name: t[title] }).waitFor();
        await page.getByText(t.callForHelp).waitFor();
        await expectUsable(page, language, `link ${state}`);
      }

      // No answer at all: a page that did not load says so at once, and offers to try again.
      answer = (route) => route.abort('internetdisconnected');
      await page.goto(`${env.api.url}/share?token=${token}`);
      // The page's language is the browser's until the link answers; the caller picks theirs.
      await page
        .getByRole('button', { name: callerTexts[language].languageName, exact: true })
        .click();
      await page.getByRole('heading', { name: t.loadFailedTitle }).waitFor();
      await expect.poll(() => alertText(page)).toBe(t.loadFailedBody);
      // Opened again in the language the caller chose: Try again is the first thing Tab reaches.
      await page.reload();
      await page.getByRole('heading', { name: t.loadFailedTitle }).waitFor();
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe(t.tryAgainButton);
      await expectUsable(page, language, 'page did not load');

      // No token at all.
      await page.goto(`${env.api.url}/share`);
      await page.getByRole('heading', { name: t.invalidTitle }).waitFor();
      await expectUsable(page, language, 'no token');
      await context.close();
    },
    150_000,
  );
});

describe("the caller's page for a caller who asked for less motion", () => {
  it('keeps its loading ring still', async () => {
    const en = callerTexts.en.page;
    const { page, context } = await phone({ serviceWorkers: 'block' });
    // The link's answer is held back, so that the page shows it is loading.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route(isLinkLookup, async (route) => {
      await held;
      await route.fulfill({ json: { status: 'expired', language: 'en' } });
    });
    const spinning = () =>
      page.evaluate(() => ({
        ring: getComputedStyle(document.querySelector('.spinner')!).animationName,
        running: document.getAnimations().length,
      }));

    await page.goto(`${env.api.url}/share?token=${'A'.repeat(43)}`);
    await page.getByRole('status').getByText(en.loading).waitFor();
    // As it is for everyone else (so that the check below can tell).
    expect(await spinning()).toEqual({ ring: 'spin', running: 1 });
    await expectAccessible(page, 'en: loading');

    await page.emulateMedia({ reducedMotion: 'reduce' });
    await expect.poll(spinning).toEqual({ ring: 'none', running: 0 });
    const durations = await page.$$eval('*', (elements) =>
      elements
        .map((element) => getComputedStyle(element))
        .filter((style) => style.animationName !== 'none' || parseFloat(style.transitionDuration))
        .map((style) => `${style.animationName} ${style.transitionDuration}`),
    );
    expect(durations).toEqual([]);

    release();
    await page.getByRole('heading', { name: en.expiredTitle }).waitFor();
    await context.close();
  }, 60_000);
});
