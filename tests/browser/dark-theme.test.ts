import { callerTexts } from '@locus/contract';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from '../support/browser';
import {
  newPage,
  signInWithForm,
  startAuthEnvironment,
  type AuthEnvironment,
} from './auth-support';
import { trackingHelpers } from './tracking-support';

/*
 * Issue 24: a dark theme for night shifts. It follows the system until the user chooses in the
 * user menu, is remembered on their account (a reload, another browser), and passes axe.
 */

let env: AuthEnvironment;
beforeAll(async () => {
  env = await startAuthEnvironment();
});
afterAll(async () => {
  await env?.close();
});

const { textedSession, callerPhone, endActiveSessions } = trackingHelpers(() => env);
afterEach(() => endActiveSessions());

const scheme = (page: Page) =>
  page.evaluate(() => document.documentElement.getAttribute('data-mantine-color-scheme'));

/** A signed-in console page; motion reduced so that axe never reads a menu mid-fade. */
async function consolePage(email: string, colorScheme: 'light' | 'dark' = 'light') {
  const { page, context } = await newPage(env.browser);
  await page.emulateMedia({ reducedMotion: 'reduce', colorScheme });
  await signInWithForm(page, env.api.url, email);
  return { page, context };
}

/** Opens the user menu and waits until it is fully shown. */
async function openUserMenu(page: Page) {
  await page.getByRole('button', { name: /user menu/i }).click();
  const menu = page.getByRole('menu');
  await menu.waitFor();
  await page.waitForFunction(() => {
    const menu = document.querySelector('[role="menu"]');
    return menu !== null && getComputedStyle(menu).opacity === '1';
  });
  return menu;
}

const themeItem = (page: Page, name: 'System' | 'Light' | 'Dark') =>
  page.getByRole('menuitemradio', { name });

async function checkedTheme(page: Page): Promise<string[]> {
  const names: string[] = [];
  for (const name of ['System', 'Light', 'Dark'] as const) {
    if ((await themeItem(page, name).getAttribute('aria-checked')) === 'true') names.push(name);
  }
  return names;
}

describe('the dark theme', { timeout: 180_000 }, () => {
  it('is chosen in the user menu, applies at once, and is remembered across reloads and browsers', async () => {
    const { page, context } = await consolePage('dispatcher@demo-county.test');
    expect(await scheme(page)).toBe('light');

    const menu = await openUserMenu(page);
    expect(await menu.getByRole('group', { name: 'Theme' }).isVisible()).toBe(true);
    expect(await checkedTheme(page)).toEqual(['System']);
    await themeItem(page, 'Dark').click();
    await expect.poll(() => scheme(page)).toBe('dark');
    expect(await checkedTheme(page)).toEqual(['Dark']);
    await expectAccessible(page, 'dark: dashboard with the user menu open');

    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'detached' });
    await expectAccessible(page, 'dark: dashboard idle');

    await openUserMenu(page);
    await page.getByRole('menuitem', { name: 'Profile' }).click();
    const profile = page.getByRole('dialog', { name: 'Profile' });
    await profile.getByLabel('First name').waitFor();
    await page.waitForFunction(() => {
      const content = document.querySelector('.mantine-Modal-content');
      return content !== null && getComputedStyle(content).opacity === '1';
    });
    await expectAccessible(page, 'dark: Profile dialog');
    await page.keyboard.press('Escape');
    await profile.waitFor({ state: 'detached' });

    // Saved on the account: a reload and another browser show it at once.
    await page.reload();
    await page.getByRole('button', { name: /user menu/i }).waitFor();
    expect(await scheme(page)).toBe('dark');
    const other = await consolePage('dispatcher@demo-county.test');
    expect(await scheme(other.page)).toBe('dark');
    await openUserMenu(other.page);
    expect(await checkedTheme(other.page)).toEqual(['Dark']);

    // The public site is drawn for a light page, whatever the console's theme.
    await page.goto(`${env.api.url}/about`);
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    expect(await scheme(page)).toBe('light');

    // Light, chosen in the other browser, comes to this one with its next page load.
    await themeItem(other.page, 'Light').click();
    await expect.poll(() => scheme(other.page)).toBe('light');
    await page.goto(`${env.api.url}/dashboard`);
    await page.getByRole('button', { name: /user menu/i }).waitFor();
    await expect.poll(() => scheme(page)).toBe('light');
    await other.context.close();
    await context.close();
  });

  it("'System' follows the system's setting, live", async () => {
    const { page, context } = await consolePage('dispatcher@demo-county.test', 'dark');
    await openUserMenu(page);
    await themeItem(page, 'System').click();
    await expect.poll(() => scheme(page)).toBe('dark');
    expect(await checkedTheme(page)).toEqual(['System']);
    await page.emulateMedia({ colorScheme: 'light' });
    await expect.poll(() => scheme(page)).toBe('light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect.poll(() => scheme(page)).toBe('dark');
    await context.close();
  });

  it('passes axe in dark while tracking a caller', async () => {
    const number = '+12025550271';
    const { page, context } = await consolePage('dispatcher@demo-county.test', 'dark');
    await openUserMenu(page);
    await themeItem(page, 'Dark').click();
    await expect.poll(() => scheme(page)).toBe('dark');
    await page.keyboard.press('Escape');

    // The session starts elsewhere (as another console would); the dashboard resumes it.
    const session = await textedSession(number, 'en');
    const caller = await callerPhone({ grant: true });
    await caller.page.goto(session.link);
    await caller.page.getByRole('button', { name: callerTexts.en.page.shareButton }).click();
    await caller.page.getByText(callerTexts.en.page.sharingTitle).first().waitFor();
    await page.reload();
    await page.getByTitle(`Caller ${number}`).waitFor();
    await page.getByRole('button', { name: 'End Tracking' }).waitFor();
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    expect(await scheme(page)).toBe('dark');
    await expectAccessible(page, 'dark: dashboard while tracking, with a fix on the map');

    await session.dispatcher.close();
    await session.end();
    await caller.context.close();
    await context.close();
  });

  it('passes axe in dark on the Teams screen, for a team admin whose system is dark', async () => {
    const { page, context } = await consolePage('teamadmin@demo-county.test', 'dark');
    // A user who never chose follows the system.
    expect(await scheme(page)).toBe('dark');
    await page.goto(`${env.api.url}/admin/teams`);
    await page.getByRole('heading', { level: 1, name: 'Teams' }).waitFor();
    await page
      .getByRole('region', { name: 'Demo County 911' })
      .getByRole('cell', { name: 'Coast patrol boats', exact: true })
      .waitFor();
    expect(await scheme(page)).toBe('dark');
    await expectAccessible(page, 'dark: /admin/teams');
    await context.close();
  });
});
