/// <reference lib="dom" />
// The functions given to page.evaluate run in the browser.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, expectAccessibleOnceShown, settled } from '../support/browser';
import {
  newPage,
  signInWithForm,
  startAuthEnvironment,
  type AuthEnvironment,
} from './auth-support';

let env: AuthEnvironment;

beforeAll(async () => {
  env = await startAuthEnvironment();
});

afterAll(async () => {
  await env?.close();
});

function url(path: string): string {
  return `${env.api.url}${path}`;
}

/** Waits for the page to stop animating, then runs axe (label-in-name among its rules). */
async function check(page: Page, state: string): Promise<void> {
  await settled(page);
  await expectAccessible(page, state);
}

/** Opens `path` and waits for its first-level heading. */
async function visit(page: Page, path: string, heading: string | RegExp): Promise<void> {
  await page.goto(url(path));
  await page.getByRole('heading', { level: 1, name: heading }).waitFor();
}

describe('the public site and the account pages', { timeout: 180_000 }, () => {
  it('have no WCAG A/AA problem on any page or state that other tests do not reach', async () => {
    const { page, context } = await newPage(env.browser);
    await visit(page, '/nowhere-at-all', 'Page not found');
    await check(page, 'not found');

    await visit(page, '/auth/forgot-password/sent', 'Check your email');
    await check(page, 'forgot password sent, no address');
    await visit(page, '/register/email-confirmation/email-sent', 'Check your email');
    await check(page, 'confirmation email sent, no address');
    await visit(page, '/register/email-confirmation', 'This link is invalid or has expired');
    await check(page, 'email confirmation, invalid link');
    await visit(page, '/auth/forgot-password/reset', 'This link no longer works');
    await check(page, 'reset password, no code');

    await visit(page, '/auth/forgot-password/reset?reset-code=' + 'a'.repeat(43), /new password/);
    await check(page, 'reset password form');
    await page.getByLabel(/^New password/).fill('a-brand-new-password');
    await page.getByLabel('Confirm new password').fill('something-else');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('The passwords do not match').waitFor();
    await check(page, 'reset password, errors');

    await visit(page, '/auth/forgot-password', 'Forgot your password?');
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await page.getByText('Enter a valid email').waitFor();
    await check(page, 'forgot password, invalid email');

    await visit(page, '/auth/sign-in', 'Sign In');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.getByText('Enter a valid email').waitFor();
    await check(page, 'sign-in page, errors');
    await page.getByRole('button', { name: 'Create Account' }).click();
    await expectAccessibleOnceShown(
      page,
      page.getByRole('dialog', { name: 'Create Account' }),
      'Create Account over the sign-in page',
    );
    await context.close();
  });
});

describe('the admin screens', { timeout: 240_000 }, () => {
  it('have no WCAG A/AA problem, for the platform owner', async () => {
    // A demo request, so that the DEV page's table has a row.
    const sent = await fetch(url('/api/v1/auth/demo-request'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        firstName: 'Avery',
        lastName: 'Visitor',
        email: 'avery@county.test',
        phoneNumber: '+1 202 555 0111',
        companyName: 'Avery County 911',
        comment: 'Two consoles',
      }),
    });
    expect(sent.status).toBe(202);

    const { page, context } = await newPage(env.browser);
    await signInWithForm(page, env.api.url, 'owner@locus.test');
    for (const [path, heading] of [
      ['/admin', 'Users'],
      ['/admin/users', 'Users'],
      ['/admin/teams', 'Teams'],
      ['/admin/overwatch', 'Overwatch groups'],
      ['/admin/admin-api', 'API'],
      ['/admin/metrics', 'Team and user metrics'],
      ['/admin/verification/edit', 'Verification'],
      ['/admin/platform-metrics', 'Platform metrics'],
      ['/overwatch', 'Overwatch'],
      ['/training', 'Training'],
      ['/uscg/approval', 'Coast Guard approvals'],
    ] as const) {
      await visit(page, path, heading);
      await check(page, path);
    }
    await visit(page, '/admin/dev', 'Dev');
    await page.getByRole('region', { name: 'Demo requests' }).getByRole('table').waitFor();
    await check(page, '/admin/dev with a demo request');
    await context.close();
  });

  it('have no WCAG A/AA problem on the team screens and call-list dialogs, for a team admin', async () => {
    const { page, context } = await newPage(env.browser);
    await signInWithForm(page, env.api.url, 'teamadmin@demo-county.test');
    await visit(page, '/admin/teams', 'Teams');
    const team = page.getByRole('region', { name: 'Demo County 911' });
    await team.getByRole('cell', { name: 'Coast patrol boats', exact: true }).waitFor();
    await check(page, '/admin/teams with call lists');

    await team.getByRole('button', { name: 'Open Coast patrol boats' }).click();
    const details = page.getByRole('dialog', { name: 'Coast patrol boats' });
    await details.getByRole('cell', { name: 'Patrol boat 1', exact: true }).waitFor();
    await check(page, 'call list open');
    await details.getByRole('button', { name: 'Add number' }).click();
    await details
      .getByText(/valid Phone Number|Required/)
      .first()
      .waitFor();
    await check(page, 'call list, invalid number');
    await details.getByRole('combobox', { name: 'Team user' }).click();
    await page.getByRole('option', { name: /Dana Dispatcher/ }).waitFor();
    await check(page, 'call list, team users listed');
    await page.keyboard.press('Escape');
    await page.keyboard.press('Escape');
    await details.waitFor({ state: 'detached' });

    await team.getByRole('button', { name: 'New call list' }).click();
    const create = page.getByRole('dialog', { name: 'New call list' });
    await create.getByLabel('Phone numbers').fill('202 555 0180\nnot-a-number');
    await create.getByText('1 invalid line will not be added').waitFor();
    await check(page, 'new call list, one invalid line');
    await page.keyboard.press('Escape');
    await create.waitFor({ state: 'detached' });

    await team.getByRole('button', { name: 'Rename Coast patrol boats' }).click();
    await expectAccessibleOnceShown(
      page,
      page.getByRole('dialog', { name: 'Rename call list' }),
      'rename call list',
    );
    await page.keyboard.press('Escape');
    await team.getByRole('button', { name: 'Delete Coast patrol boats' }).click();
    await expectAccessibleOnceShown(
      page,
      page.getByRole('dialog', { name: 'Delete call list' }),
      'delete call list',
    );
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });

    await page.getByRole('link', { name: 'TEAMS' }).waitFor();
    const teamId = await env.database.db
      .selectFrom('teams')
      .select('id')
      .where('team_name', '=', 'Demo County 911')
      .executeTakeFirstOrThrow();
    await visit(page, `/admin/teams/${teamId.id}/edit`, 'Team: Demo County 911');
    await page.getByRole('cell', { name: 'Coast patrol boats', exact: true }).waitFor();
    await check(page, 'team edit');
    await visit(page, '/admin/teams/00000000-0000-4000-8000-000000000000/edit', 'Team not found');
    await check(page, 'team edit, not a team of yours');
    await context.close();
  });

  it('open the admin navigation on a phone without a WCAG A/AA problem', async () => {
    const { page, context } = await newPage(env.browser, { width: 375, height: 740 });
    await signInWithForm(page, env.api.url, 'owner@locus.test');
    await visit(page, '/admin/teams', 'Teams');
    await page.getByRole('button', { name: 'Open admin navigation' }).click();
    await page
      .getByRole('navigation', { name: 'Admin sections' })
      .getByRole('link')
      .first()
      .waitFor();
    await check(page, 'admin navigation on a phone');
    await context.close();
  });
});

describe('the skip link', { timeout: 60_000 }, () => {
  /**
   * Tab from the top of a freshly loaded page, then Enter: focus lands on the main region, and
   * the next Tab goes on to `next`, the main content's first control.
   */
  async function skipFromTop(page: Page, next?: string) {
    await page.keyboard.press('Tab');
    const first = await page.evaluate(() => document.activeElement?.textContent?.trim() ?? '');
    expect(first).toBe('Skip to main content');
    // Visible once focused (WCAG 2.4.7), not left off screen.
    const box = await page.locator(':focus').boundingBox();
    expect(box!.y).toBeGreaterThanOrEqual(0);
    await page.keyboard.press('Enter');
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.id ?? ''))
      .toBe('main-content');
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('MAIN');
    if (next === undefined) return;
    await page.keyboard.press('Tab');
    expect(
      await page.evaluate(() => ({
        inMain: document.getElementById('main-content')?.contains(document.activeElement),
        // A field by its label's own text (without the required asterisk), a button by its text.
        text: (
          (document.activeElement as HTMLInputElement | null)?.labels?.[0]?.firstChild
            ?.textContent ?? document.activeElement?.textContent
        )?.trim(),
      })),
    ).toEqual({ inMain: true, text: next });
  }

  it('is the first stop on an account page and moves focus to the main content', async () => {
    const { page, context } = await newPage(env.browser);
    await visit(page, '/auth/sign-in', 'Sign In');
    // The email field takes focus on load; the skip link is first from the top of the page.
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await skipFromTop(page, 'Email');
    await context.close();
  });

  it('is the first stop on an admin page and moves focus to the main content', async () => {
    const { page, context } = await newPage(env.browser);
    await signInWithForm(page, env.api.url, 'owner@locus.test');
    await visit(page, '/admin/teams', 'Teams');
    // The platform owner's first control is the teams table's Create team.
    await page.getByRole('button', { name: 'Create team' }).waitFor();
    await skipFromTop(page, 'Create team');
    // Overwatch (no watch running) and training: the skip link still lands on the main content.
    for (const [path, heading] of [
      ['/overwatch', 'Overwatch'],
      ['/training', 'Training'],
    ] as const) {
      await visit(page, path, heading);
      await skipFromTop(page);
    }
    await context.close();
  });
});

describe('reflow at 320 CSS px', { timeout: 60_000 }, () => {
  const narrow = { width: 320, height: 640 };
  const scrollWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);

  it('scrolls no public or account page sideways', async () => {
    const { page, context } = await newPage(env.browser, narrow);
    for (const [path, heading] of [
      ['/', /Find the caller/],
      ['/about', /We help emergency services/],
      ['/auth/sign-in', 'Sign In'],
      ['/auth/forgot-password', 'Forgot your password?'],
    ] as const) {
      await visit(page, path, heading);
      await settled(page);
      expect(await scrollWidth(page), path).toBeLessThanOrEqual(narrow.width);
    }
    await context.close();
  });

  it('scrolls no admin page sideways', async () => {
    const { page, context } = await newPage(env.browser, narrow);
    await signInWithForm(page, env.api.url, 'teamadmin@demo-county.test');
    for (const [path, heading] of [
      ['/admin/teams', 'Teams'],
      ['/admin/admin-api', 'API'],
      ['/overwatch', 'Overwatch'],
      ['/training', 'Training'],
    ] as const) {
      await visit(page, path, heading);
      await settled(page);
      expect(await scrollWidth(page), path).toBeLessThanOrEqual(narrow.width);
    }
    await context.close();
  });
});
