import { callerTexts, type SmsLanguage } from '@locus/contract';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from '../support/browser';
import { startAuthEnvironment, type AuthEnvironment } from './auth-support';
import { trackingHelpers, type TextBack } from './tracking-support';

// The caller's page when its positions do not get through: it shows the newest one in words the
// caller can read to the dispatcher ("Your location"), and after 20 s (the API's default
// CALLER_TEXT_FALLBACK_AFTER_MS) offers to send it by text message, at most once a minute.

let env: AuthEnvironment;

beforeAll(async () => {
  env = await startAuthEnvironment();
});

afterAll(async () => {
  await env?.close();
});

const { textedSession, textBackOf, callerPhone, endActiveSessions } = trackingHelpers(() => env);

afterEach(() => endActiveSessions());

/** The API's default wait for an ack before the page offers to text. */
const AFTER_MS = 20_000;
/** The offer stays away this long after a tap. */
const PAUSE_MS = 60_000;

/** Where the caller is when the network goes: the White House, whose Plus Code is well known. */
const whiteHouse = { latitude: 38.8977, longitude: -77.0365, accuracy: 12 };
const whiteHousePlusCode = '87C4VXX7+39';
/** Where the caller was before (a block away). */
const before = { latitude: 38.8985, longitude: -77.0352 };

/** A session texted to `number` in `language`, its link, and what the link says to the page. */
async function textedLink(number: string, language: SmsLanguage) {
  const session = await textedSession(number, language);
  await session.dispatcher.close();
  return { link: session.link, textBack: await textBackOf(session.link) };
}

/** What the offer's `sms:` link holds: the number, and the text as the messages app shows it. */
function parseSmsHref(href: string): { number: string; text: string } {
  const match = /^sms:([^?]+)\?&body=(.*)$/.exec(href);
  if (!match) throw new Error(`not an sms: link: ${href}`);
  return { number: match[1]!, text: decodeURIComponent(match[2]!) };
}

/** Checks the prefilled text: this position to 5 decimals, its accuracy, a time, the code. */
function expectLocationText(
  href: string,
  textBack: TextBack,
  position: { latitude: number; longitude: number; accuracy: number },
) {
  const { number, text } = parseSmsHref(href);
  expect(number).toBe(textBack.number);
  const match = /^LOC (-?\d+\.\d{5}),(-?\d+\.\d{5}) ±(\d+)m (\d\d):(\d\d):(\d\d)Z #(\w{4})$/.exec(
    text,
  );
  expect(match, text).not.toBeNull();
  const [, latitude, longitude, accuracy, hours, minutes, seconds, code] = match!;
  expect(latitude).toBe(position.latitude.toFixed(5));
  expect(longitude).toBe(position.longitude.toFixed(5));
  expect(Number(accuracy)).toBe(position.accuracy);
  expect(code).toBe(textBack.code);
  // Taken within the last few minutes (time of day in UTC; across midnight too).
  const now = new Date();
  const secondsOfDay = (h: number, m: number, s: number) => h * 3600 + m * 60 + s;
  const age =
    (secondsOfDay(now.getUTCHours(), now.getUTCMinutes(), now.getUTCSeconds()) -
      secondsOfDay(Number(hours), Number(minutes), Number(seconds)) +
      86_400) %
    86_400;
  expect(age).toBeLessThan(300);
}

/** Keeps the page when the offer is tapped: a phone would open its messages app instead. */
async function keepPageOnSmsLinks(page: Page): Promise<void> {
  await page.evaluate(() =>
    document.addEventListener('click', (event) => {
      if ((event.target as Element).closest('a[href^="sms:"]')) event.preventDefault();
    }),
  );
}

/** Waits until the debug panel says the server took every fix. */
async function waitForAllAcked(page: Page): Promise<void> {
  await page.getByText('queued: 0', { exact: true }).waitFor({ timeout: 20_000 });
}

describe('when the caller’s positions do not get through', () => {
  it.each<[SmsLanguage, string]>([
    ['en', '+12025550191'],
    ['zh', '+12025550192'],
  ])(
    '%s: shows "Your location", offers to text it after 20 s, and stops offering once acks flow',
    async (language, number) => {
      const t = callerTexts[language].page;
      const { link, textBack } = await textedLink(number, language);
      expect(textBack.afterMs).toBe(AFTER_MS);
      const caller = await callerPhone({ grant: true, ...before });
      const { page, context } = caller;

      await page.goto(link);
      await page.getByRole('button', { name: t.shareButton }).click();
      await page.getByText(t.connected, { exact: true }).waitFor();
      // The technical details keep working, and say when the server took every fix.
      await page.getByText(t.debugTitle).click();
      await waitForAllAcked(page);

      // "Your location" shows as soon as there is a position, whatever the network does.
      const here = page.getByRole('region', { name: t.yourLocationTitle });
      await here.getByText(t.readToDispatcher).waitFor();
      await here.getByText('38.89850, -77.03520').waitFor();
      expect(await here.locator('dt').allInnerTexts()).toEqual([
        t.plusCodeLabel,
        t.coordinatesLabel,
      ]);
      expect(await here.locator('dd.pluscode').textContent()).toMatch(/^87C4[2-9CFGHJMPQRVWX+]+$/);
      const offer = page.getByRole('link', { name: t.sendByTextButton });
      expect(await offer.count()).toBe(0);
      await expectAccessible(page, `${language}: sharing, your location shown`);

      // The network goes; the caller moves. The new position waits on the phone.
      await context.setOffline(true);
      await page.getByRole('main').getByText(t.reconnecting).waitFor();
      await context.setGeolocation(whiteHouse);
      const moved = Date.now();
      await here.getByText(whiteHousePlusCode).waitFor();
      await here.getByText('38.89770, -77.03650').waitFor();
      await here.getByText(t.accuracy(12)).waitFor();
      await here.getByText(t.takenAt('')).waitFor();

      // 20 s after the position that did not get through, the page offers to text it.
      await offer.waitFor({ timeout: AFTER_MS + 15_000 });
      expect(Date.now() - moved).toBeGreaterThanOrEqual(AFTER_MS - 500);
      expectLocationText((await offer.getAttribute('href'))!, textBack, whiteHouse);
      expect(await offer.getAttribute('target')).toBeNull();
      await page.getByText(t.textFallbackBody, { exact: true }).waitFor();
      await page.getByText(t.sendByTextHint).waitFor();
      // Screen readers are told, politely.
      expect(await page.getByRole('status').allTextContents()).toContain(
        `${t.textFallbackBody} ${t.sendByTextButton}`,
      );
      await expectAccessible(page, `${language}: offline, text offered`);

      if (language === 'en') {
        // Tapped: the messages app opens (here, the page stays); the offer goes away for a
        // minute, and focus goes to the position the caller can read out.
        await keepPageOnSmsLinks(page);
        await offer.click();
        const tapped = Date.now();
        await offer.waitFor({ state: 'detached' });
        await expect
          .poll(() => page.evaluate(() => document.activeElement?.textContent))
          .toBe(t.yourLocationTitle);
        await expectAccessible(page, `${language}: text offer tapped, focus on your location`);

        // Still nothing gets through, and the caller moves on: a minute after the tap the
        // offer is back, with the newest position.
        const further = { latitude: 38.8989, longitude: -77.0347, accuracy: 9 };
        await context.setGeolocation(further);
        await here.getByText('38.89890, -77.03470').waitFor();
        await offer.waitFor({ timeout: PAUSE_MS + 15_000 });
        expect(Date.now() - tapped).toBeGreaterThanOrEqual(PAUSE_MS - 500);
        expectLocationText((await offer.getAttribute('href'))!, textBack, further);
      }

      // The network is back: once the server acks the waiting positions, no more offer.
      await context.setOffline(false);
      await page.getByText(t.connected, { exact: true }).waitFor({ timeout: 20_000 });
      await waitForAllAcked(page);
      await offer.waitFor({ state: 'detached' });
      await here.getByText(t.readToDispatcher).waitFor();
      await expectAccessible(page, `${language}: back online`);
      await context.close();
    },
    150_000,
  );
});
