import { callerTexts } from '@locus/contract';
import type { Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, focusRingOf, type FocusRing } from '../support/browser';
import {
  DEMO_PASSWORD,
  newPage,
  signInWithForm,
  startAuthEnvironment,
  type AuthEnvironment,
} from './auth-support';
import { trackingHelpers } from './tracking-support';

/*
 * Issue 24, the dispatcher's side: every state of the dashboard passes axe, a dispatcher who
 * cannot use a mouse does the whole job with the keyboard and always sees where focus is, a
 * screen reader hears each new fix, and the console reflows to 320 CSS px.
 */

let env: AuthEnvironment;
beforeAll(async () => {
  env = await startAuthEnvironment();
});
afterAll(async () => {
  await env?.close();
});

const { waitForSms, callerLinkIn, dispatcherPage, callerPhone, endActiveSessions } =
  trackingHelpers(() => env);
afterEach(() => endActiveSessions());

const en = callerTexts.en.page;

/** The focused element's ring, or null when focus is on nothing. */
async function focusRing(page: Page): Promise<FocusRing | null> {
  const focused = page.locator(':focus');
  return (await focused.count()) === 0 ? null : focused.first().evaluate(focusRingOf);
}

/** Focus is somewhere, with a ring at least 2 px wide and 3:1 against its surroundings. */
async function expectFocusVisible(page: Page, step: string): Promise<void> {
  const ring = await focusRing(page);
  expect(ring, `focus lost at ${step}`).not.toBeNull();
  expect.soft(ring!.width, `ring width at ${step} (${ring!.element})`).toBeGreaterThanOrEqual(2);
  expect
    .soft(ring!.contrast, `ring contrast at ${step} (${ring!.element})`)
    .toBeGreaterThanOrEqual(3);
}

const isFocused = (target: Locator) =>
  target.evaluate((element) => element === document.activeElement).catch(() => false);

/** Presses Tab (or Shift+Tab) until `target` has focus, checking the ring at every stop. */
async function tabTo(page: Page, target: Locator, backwards = false): Promise<void> {
  for (let presses = 0; presses < 40; presses += 1) {
    await page.keyboard.press(backwards ? 'Shift+Tab' : 'Tab');
    await expectFocusVisible(page, `Tab ${presses + 1} towards ${String(target)}`);
    if (await isFocused(target)) return;
  }
  throw new Error(`Tab never reached ${String(target)}`);
}

/** Counts the pointer events a page receives: the keyboard journey must cause none. */
async function countPointerEvents(page: Page): Promise<() => Promise<number>> {
  await page.addInitScript(() => {
    const counter = window as unknown as { pointerEvents: number };
    counter.pointerEvents = 0;
    for (const type of ['pointerdown', 'mousedown', 'touchstart'])
      window.addEventListener(type, () => (counter.pointerEvents += 1), true);
  });
  return () => page.evaluate(() => (window as unknown as { pointerEvents: number }).pointerEvents);
}

/** Everything the live region says from now on, in order (each change is read out). */
async function recordAnnouncements(page: Page): Promise<() => Promise<string>> {
  await page.getByTestId('announcer').evaluate((region) => {
    const record = window as unknown as { announced: string[] };
    record.announced = [];
    new MutationObserver(() => record.announced.push(region.textContent ?? '')).observe(region, {
      childList: true,
      characterData: true,
      subtree: true,
    });
  });
  return () =>
    page.evaluate(() => (window as unknown as { announced: string[] }).announced.join(' | '));
}

describe('a dispatcher who uses the keyboard and a screen reader', { timeout: 180_000 }, () => {
  it('signs in, locates a number, texts the caller, hears the fix arrive and ends tracking, with the keyboard alone and focus always visible', async () => {
    const number = '+12025550171';
    const { page, context } = await newPage(env.browser);
    const pointerEvents = await countPointerEvents(page);

    await page.goto(`${env.api.url}/auth/sign-in`);
    await page.getByLabel('Email').waitFor();
    await tabTo(page, page.getByLabel('Email'));
    await page.keyboard.type('dispatcher@demo-county.test');
    await tabTo(page, page.getByRole('textbox', { name: 'Password', exact: true }));
    await page.keyboard.type(DEMO_PASSWORD);
    await page.keyboard.press('Enter');
    await page.waitForURL(`${env.api.url}/dashboard`);
    await page.getByRole('button', { name: /user menu/i }).waitFor();

    // The first stop is the skip link, shown when reached; it leads into the main content.
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Skip to main content' });
    expect(await isFocused(skip)).toBe(true);
    await expectFocusVisible(page, 'skip link');
    const box = await skip.boundingBox();
    expect(box && box.y >= 0 && box.height > 0).toBe(true);

    // The user menu and its Profile dialog: focus goes in, stays in, Escape gives it back.
    const menuButton = page.getByRole('button', { name: /user menu/i });
    await tabTo(page, menuButton);
    await page.keyboard.press('Enter');
    await page.getByRole('menu').waitFor();
    const profileItem = page.getByRole('menuitem', { name: 'Profile' });
    for (let presses = 0; presses < 10 && !(await isFocused(profileItem)); presses += 1)
      await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    const profile = page.getByRole('dialog', { name: 'Profile' });
    await profile.waitFor();
    for (let presses = 0; presses < 12; presses += 1) {
      await page.keyboard.press('Tab');
      expect(await profile.evaluate((dialog) => dialog.contains(document.activeElement))).toBe(
        true,
      );
    }
    await page.keyboard.press('Escape');
    await profile.waitFor({ state: 'detached' });
    await expect.poll(() => isFocused(menuButton)).toBe(true);

    // Locate: the phone field, then Enter.
    await tabTo(page, page.getByLabel('Phone number'), true);
    await page.keyboard.type(number);
    await page.keyboard.press('Enter');
    const prompt = page.getByRole('dialog', { name: 'Send SMS to the caller?' });
    await prompt.waitFor();
    await expect
      .poll(() => prompt.evaluate((dialog) => dialog.contains(document.activeElement)))
      .toBe(true);
    await tabTo(page, prompt.getByRole('button', { name: 'Send SMS' }));
    await page.keyboard.press('Enter');
    const waiting = page.getByRole('dialog', { name: /Waiting for location/i });
    await waiting.waitFor();

    // The caller shares (on their own phone).
    const caller = await callerPhone({ grant: true });
    await caller.page.goto(callerLinkIn(await waitForSms(number)));
    await caller.page.getByRole('button', { name: en.shareButton }).click();
    await caller.page.getByText(en.sharingTitle).first().waitFor();

    // The fix closes the waiting modal; focus goes to the latest fix, and it is announced.
    await waiting.waitFor({ state: 'detached' });
    const latest = page.getByRole('region', { name: 'Latest fix' });
    await expect.poll(() => isFocused(latest), { timeout: 10_000 }).toBe(true);
    await expectFocusVisible(page, 'latest fix');
    await expect
      .poll(() => page.getByTestId('announcer').innerText(), { timeout: 10_000 })
      .toContain(`New location for ${number}`);

    // End tracking, confirmed from the dialog; focus comes back to the phone field.
    await tabTo(page, page.getByRole('button', { name: 'End Tracking' }), true);
    await page.keyboard.press('Enter');
    const confirm = page.getByRole('dialog', { name: 'Are you sure?' });
    await confirm.waitFor();
    await tabTo(page, confirm.getByRole('button', { name: 'End Tracking' }));
    await page.keyboard.press('Enter');
    await confirm.waitFor({ state: 'detached' });
    await expect
      .poll(() => isFocused(page.getByLabel('Phone number')), { timeout: 15_000 })
      .toBe(true);
    await expectFocusVisible(page, 'phone field after ending');

    expect(await pointerEvents()).toBe(0);
    await caller.context.close();
    await context.close();
  });

  it('arrows between Locate Numbers and Locate by List without opening either; Enter opens the one chosen', async () => {
    const { page, context } = await dispatcherPage();
    // Every dialog that ever opens, by name.
    await page.evaluate(() => {
      const record = window as unknown as { dialogs: string[] };
      record.dialogs = [];
      new MutationObserver(() => {
        for (const dialog of document.querySelectorAll('[role="dialog"]')) {
          const name = document.getElementById(dialog.getAttribute('aria-labelledby') ?? '');
          const text = name?.textContent ?? '?';
          if (!record.dialogs.includes(text)) record.dialogs.push(text);
        }
      }).observe(document.body, { childList: true, subtree: true });
    });
    const numbers = page.getByRole('radio', { name: 'Locate Numbers' });
    const lists = page.getByRole('radio', { name: 'Locate by List' });
    await numbers.focus();
    await page.keyboard.press('ArrowRight');
    expect(await isFocused(lists)).toBe(true);
    await page.keyboard.press('ArrowLeft');
    expect(await isFocused(numbers)).toBe(true);
    await page.keyboard.press('Enter');
    await page.getByRole('dialog', { name: 'Tracking Numbers' }).waitFor();
    expect(await page.evaluate(() => (window as unknown as { dialogs: string[] }).dialogs)).toEqual(
      ['Tracking Numbers'],
    );
    await context.close();
  });

  it('announces the caller connecting, a new fix and a text from the caller in a polite live region', async () => {
    const number = '+12025550172';
    const { page, context } = await dispatcherPage();
    const announcer = page.getByTestId('announcer');
    expect(await announcer.getAttribute('aria-live')).toBe('polite');
    expect(await announcer.getAttribute('role')).toBe('status');
    const announced = await recordAnnouncements(page);

    await page.getByLabel('Phone number').fill(number);
    await page.getByRole('button', { name: 'Locate' }).click();
    await page.getByRole('button', { name: 'Send SMS' }).click();
    await expect.poll(announced, { timeout: 10_000 }).toContain('SMS request sent');

    const caller = await callerPhone({ grant: true });
    await caller.page.goto(callerLinkIn(await waitForSms(number)));
    await caller.page.getByRole('button', { name: en.shareButton }).click();
    await expect.poll(announced, { timeout: 10_000 }).toContain('Caller connected');
    await expect
      .poll(announced, { timeout: 10_000 })
      .toMatch(/New location for \+12025550172, accurate to \d+ metres/);

    const fixesSaid = async () => (await announced()).split('New location for').length - 1;
    const saidBefore = await fixesSaid();
    for (let step = 1; step <= 3; step += 1) {
      await caller.context.setGeolocation({
        latitude: 38.8977 + step * 0.001,
        longitude: -77.0365,
        accuracy: 10,
      });
      await expect
        .poll(() => page.getByTestId('fix-count').innerText(), { timeout: 10_000 })
        .toBe(`${step + 1} fixes`);
    }
    // Three fixes, a second or so apart: read one by one they would be three more; paced, at most
    // one more (if this machine took over the quarter-minute to get them through).
    expect(await fixesSaid()).toBeLessThanOrEqual(saidBefore + 1);

    // A text from the caller: seen in the banner, heard from the announcer.
    await fetch(`${env.api.url}/api/v1/dev/outbox/sms/inbound`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ from: number, body: 'I am upstairs' }),
    });
    await page.getByText('SMS Received').first().waitFor();
    await expect.poll(announced, { timeout: 10_000 }).toContain('SMS Received');
    await caller.context.close();
    await context.close();
  });
});

describe('every state of the dashboard', { timeout: 180_000 }, () => {
  it('passes axe idle, with the user menu and each dialog open', async () => {
    const { page, context } = await dispatcherPage();
    await expectAccessible(page, 'dashboard idle');

    await page.getByRole('button', { name: /user menu/i }).click();
    await page.getByRole('menu').waitFor();
    await expectAccessible(page, 'user menu open');
    await page.getByRole('menuitem', { name: 'Profile' }).click();
    await page.getByRole('dialog', { name: 'Profile' }).waitFor();
    await expectAccessible(page, 'profile dialog');
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });

    await page.locator('label', { hasText: 'Locate Numbers' }).click();
    const numbers = page.getByRole('dialog', { name: 'Tracking Numbers' });
    await numbers.waitFor();
    await numbers.getByLabel('Phone number to add').fill('123');
    await numbers.getByLabel('Phone number to add').press('Enter');
    await numbers.getByText('invalid').waitFor();
    await expectAccessible(page, 'Tracking Numbers dialog, with an invalid number');
    await page.reload();
    await page.locator('label', { hasText: 'Locate by List' }).click();
    await page
      .getByRole('dialog', { name: 'Tracking Lists' })
      .getByRole('checkbox')
      .first()
      .waitFor();
    await expectAccessible(page, 'Tracking Lists dialog');
    await context.close();
  });

  it('passes axe while texting, waiting, tracking and confirming the end', async () => {
    const number = '+12025550173';
    const { page, context } = await dispatcherPage();
    await page.getByLabel('Phone number').fill(number);
    await page.getByRole('button', { name: 'Locate' }).click();
    await page.getByRole('dialog', { name: 'Send SMS to the caller?' }).waitFor();
    await expectAccessible(page, 'SMS prompt');
    await page.getByRole('button', { name: 'Send SMS' }).click();
    await page.getByRole('dialog', { name: /Waiting for location/i }).waitFor();
    await expectAccessible(page, 'waiting for location');

    const caller = await callerPhone({ grant: true });
    await caller.page.goto(callerLinkIn(await waitForSms(number)));
    await caller.page.getByRole('button', { name: en.shareButton }).click();
    await page.getByTitle(`Caller ${number}`).waitFor();
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await expectAccessible(page, 'tracking, with a fix on the map');

    await page.getByRole('button', { name: 'End Tracking' }).click();
    await page.getByRole('dialog', { name: 'Are you sure?' }).waitFor();
    await expectAccessible(page, 'end tracking confirmation');
    await caller.context.close();
    await context.close();
  });

  it('reflows at 320 CSS px (400 % zoom) without scrolling sideways, idle and tracking', async () => {
    const number = '+12025550174';
    const { page, context } = await newPage(env.browser, { width: 320, height: 640 });
    await signInWithForm(page, env.api.url, 'dispatcher@demo-county.test');
    const scrollWidth = () => page.evaluate(() => document.documentElement.scrollWidth);
    expect(await scrollWidth()).toBeLessThanOrEqual(320);
    await page.getByLabel('Phone number').fill(number);
    await page.getByRole('button', { name: 'Locate' }).click();
    await page.getByRole('button', { name: 'Send SMS' }).click();
    const caller = await callerPhone({ grant: true });
    await caller.page.goto(callerLinkIn(await waitForSms(number)));
    await caller.page.getByRole('button', { name: en.shareButton }).click();
    await page.getByTitle(`Caller ${number}`).waitFor();
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    expect(await scrollWidth()).toBeLessThanOrEqual(320);
    // Nothing is lost: the fix, the log and End Tracking are all there.
    await page.getByRole('region', { name: 'Latest fix' }).getByText('Latitude').waitFor();
    await page.getByRole('button', { name: 'End Tracking' }).waitFor();
    await expectAccessible(page, 'tracking at 320 px');
    await caller.context.close();
    await context.close();
  });
});
