import { hashPassword } from '@locus/db';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from '../support/browser';
import {
  apiSignIn,
  DEMO_PASSWORD,
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

/**
 * A dispatcher who has never tracked anyone (hasSeenWalkthrough false, the column's default):
 * confirmed, registered, on Demo County 911, whose domain is cleared.
 */
async function newDispatcher(name: string): Promise<string> {
  const email = `${name}-${crypto.randomUUID().slice(0, 8)}@demo-county.test`;
  const db = env.database.db;
  const team = await db
    .selectFrom('teams')
    .select('id')
    .where('team_name', '=', 'Demo County 911')
    .executeTakeFirstOrThrow();
  const user = await db
    .insertInto('users')
    .values({
      first_name: 'Rowan',
      last_name: name,
      email,
      email_confirmed_at: new Date(),
      registration_completed_at: new Date(),
      password_hash: await hashPassword(DEMO_PASSWORD),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('team_members')
    .values({ team_id: team.id, user_id: user.id, role: 'member' })
    .execute();
  return email;
}

const tour = (page: Page) => page.getByRole('dialog', { name: /Dashboard tour/ });

async function focusedText(page: Page): Promise<string> {
  return page.evaluate(() => document.activeElement?.textContent ?? '');
}

/** The ring is drawn around the target: the target's box lies inside the ring's. */
async function expectRingAround(page: Page, target: Locator): Promise<void> {
  await expect
    .poll(
      async () => {
        const ring = await page.getByTestId('tour-ring').boundingBox();
        const box = await target.boundingBox();
        if (!ring || !box) return false;
        return (
          ring.x <= box.x &&
          ring.y <= box.y &&
          ring.x + ring.width >= box.x + box.width &&
          ring.y + ring.height >= box.y + box.height
        );
      },
      { timeout: 10_000 },
    )
    .toBe(true);
}

async function expectStep(page: Page, step: number, title: string): Promise<void> {
  const dialog = tour(page);
  await dialog.getByText(`Step ${step} of 4`).waitFor();
  await dialog.getByRole('heading', { name: title }).waitFor();
}

/** Waits until the dashboard is loaded and idle (every chunk it asks for has arrived). */
async function dashboardSettled(page: Page): Promise<void> {
  await page.getByLabel('Phone number').waitFor();
  await page.waitForLoadState('networkidle');
}

async function hasSeenWalkthrough(email: string): Promise<boolean> {
  const { token } = await apiSignIn(env.api.url, email);
  const response = await fetch(`${env.api.url}/api/v1/auth/current-user`, {
    headers: { authorization: `Bearer ${token}` },
  });
  return ((await response.json()) as { hasSeenWalkthrough: boolean }).hasSeenWalkthrough;
}

describe('the dashboard tour', { timeout: 240_000 }, () => {
  it('walks a new dispatcher through the number field, Locate, the toggle and the log, by keyboard, on every load until skipped', async () => {
    const email = await newDispatcher('Newcomer');
    const { page, context } = await newPage(env.browser);
    await signInWithForm(page, env.api.url, email);

    // Step 1: the number field, with focus in the tour.
    await expectStep(page, 1, 'The caller’s number');
    await expectRingAround(page, page.getByLabel('Phone number'));
    await expect.poll(() => focusedText(page)).toBe('Next');
    await expectAccessible(page, 'tour, step 1 (the number field)');

    // With the keyboard: Enter on Next moves on, focus stays on it.
    await page.keyboard.press('Enter');
    await expectStep(page, 2, 'Locate');
    await expectRingAround(page, page.getByRole('button', { name: 'Locate', exact: true }));
    expect(await focusedText(page)).toBe('Next');
    await expectAccessible(page, 'tour, step 2 (Locate)');

    await page.keyboard.press('Enter');
    await expectStep(page, 3, 'Many numbers at once');
    await expectRingAround(page, page.locator('[data-tour="locate-many"]'));
    // Tab goes round the tour's buttons, never off into the page behind.
    for (const expected of ['Skip tour', 'Back', 'Next', 'Skip tour']) {
      await page.keyboard.press('Tab');
      expect(await focusedText(page)).toBe(expected);
    }
    await page.keyboard.press('Shift+Tab');
    expect(await focusedText(page)).toBe('Next');
    await expectAccessible(page, 'tour, step 3 (the toggle)');

    // Back, then on again.
    await page.keyboard.press('Shift+Tab');
    expect(await focusedText(page)).toBe('Back');
    await page.keyboard.press('Enter');
    await expectStep(page, 2, 'Locate');
    await tour(page).getByRole('button', { name: 'Next' }).focus();
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    await expectStep(page, 4, 'The log');
    await expectRingAround(page, page.getByRole('region', { name: 'Log' }));
    expect(await focusedText(page)).toBe('Done');
    await expectAccessible(page, 'tour, step 4 (the log)');

    // Done: the tour closes and focus goes back to the page, to the number field.
    await page.keyboard.press('Enter');
    await tour(page).waitFor({ state: 'detached' });
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label')))
      .toBe('Phone number');
    await expectAccessible(page, 'dashboard after the tour');

    // The flag is still false: the next load shows the tour again.
    await page.reload();
    await expectStep(page, 1, 'The caller’s number');
    await expectAccessible(page, 'tour again after a reload');

    // Escape skips it, for this tab: a reload does not bring it back.
    await page.keyboard.press('Escape');
    await tour(page).waitFor({ state: 'detached' });
    await page.reload();
    await dashboardSettled(page);
    expect(await tour(page).count()).toBe(0);
    await expectAccessible(page, 'dashboard, tour skipped in this tab');

    // Another tab shows it again; Skip tour is the button for it.
    const tab = await context.newPage();
    await tab.goto(`${env.api.url}/dashboard`);
    await expectStep(tab, 1, 'The caller’s number');
    await tour(tab).getByRole('button', { name: 'Skip tour' }).click();
    await tour(tab).waitFor({ state: 'detached' });
    await tab.close();
    await context.close();
  });

  it('is not shown again once the first tracking has ended', async () => {
    const email = await newDispatcher('Tracker');
    const { page, context } = await newPage(env.browser);
    await signInWithForm(page, env.api.url, email);
    await expectStep(page, 1, 'The caller’s number');
    await tour(page).getByRole('button', { name: 'Skip tour' }).click();
    await tour(page).waitFor({ state: 'detached' });
    expect(await hasSeenWalkthrough(email)).toBe(false);

    // The first tracking (a number the lookup simulator knows), ended from the console.
    await page.getByLabel('Phone number').fill('+12025550107');
    await page.getByRole('button', { name: 'Locate', exact: true }).click();
    await page.getByRole('banner').getByText('Locating +12025550107').waitFor();
    await page.getByRole('button', { name: 'End Tracking' }).click();
    await page
      .getByRole('dialog', { name: 'Are you sure?' })
      .getByRole('button', { name: 'End Tracking' })
      .click();
    await page.getByRole('button', { name: 'Locate', exact: true }).waitFor();
    await expect.poll(() => hasSeenWalkthrough(email), { timeout: 10_000 }).toBe(true);
    await context.close();

    // Never again, even in a fresh browser where nothing was skipped.
    const fresh = await newPage(env.browser);
    await signInWithForm(fresh.page, env.api.url, email);
    await dashboardSettled(fresh.page);
    expect(await tour(fresh.page).count()).toBe(0);
    await fresh.page.reload();
    await dashboardSettled(fresh.page);
    expect(await tour(fresh.page).count()).toBe(0);
    await expectAccessible(fresh.page, 'dashboard after the first tracking: no tour');
    await fresh.context.close();
  });

  it('fits a 320 px screen and does not move when reduced motion is asked for', async () => {
    const email = await newDispatcher('Narrow');
    const { page, context } = await newPage(env.browser, { width: 320, height: 640 });
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await signInWithForm(page, env.api.url, email);
    const dialog = tour(page);
    for (const [step, title] of [
      [1, 'The caller’s number'],
      [2, 'Locate'],
      [3, 'Many numbers at once'],
      [4, 'The log'],
    ] as const) {
      await expectStep(page, step, title);
      const box = (await dialog.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(320);
      expect(box.y).toBeGreaterThanOrEqual(0);
      expect(box.y + box.height).toBeLessThanOrEqual(640);
      // The app's reduced-motion rule leaves at most 0.01 ms of any transition.
      const duration = await page
        .getByTestId('tour-ring')
        .evaluate((ring) => parseFloat(getComputedStyle(ring).transitionDuration));
      expect(duration).toBeLessThanOrEqual(0.00001);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        320,
      );
      await expectAccessible(page, `tour at 320 px, step ${step}`);
      await dialog.getByRole('button', { name: step === 4 ? 'Done' : 'Next' }).click();
    }
    await dialog.waitFor({ state: 'detached' });
    await context.close();
  });
});

describe("the profile's password change", { timeout: 180_000 }, () => {
  it('says a wrong current password beside its field, then changes the password', async () => {
    const email = await newDispatcher('Changer');
    const { page, context } = await newPage(env.browser);
    await signInWithForm(page, env.api.url, email);
    await tour(page).getByRole('button', { name: 'Skip tour' }).click();

    await page.getByRole('button', { name: /user menu/i }).click();
    await page.getByRole('menuitem', { name: 'Profile' }).click();
    const profile = page.getByRole('dialog', { name: 'Profile' });
    const section = profile.getByRole('region', { name: 'Change password' });
    await section.waitFor();
    const current = section.getByLabel('Current password');
    const newPassword = section.getByLabel(/^New password/);
    const confirm = section.getByLabel('Confirm new password');
    const strong = 'Quarry-lantern-drizzle-58';

    // A wrong current password: told beside that field, focus there.
    await current.fill('not-my-password');
    await newPassword.fill(strong);
    await section.getByTestId('password-strength').waitFor();
    await confirm.fill(strong);
    await section.getByRole('button', { name: 'Change password' }).click();
    await section.getByText('Your current password is not right.').waitFor();
    expect(await current.getAttribute('aria-invalid')).toBe('true');
    const describedBy = (await current.getAttribute('aria-describedby')) ?? '';
    const message = await page.evaluate(
      (ids) =>
        ids
          .split(' ')
          .map((id) => document.getElementById(id)?.textContent ?? '')
          .join(' '),
      describedBy,
    );
    expect(message).toContain('Your current password is not right.');
    expect(await current.evaluate((input) => input === document.activeElement)).toBe(true);
    expect(await newPassword.getAttribute('aria-invalid')).not.toBe('true');
    await expectAccessible(page, 'profile, wrong current password');

    // A common new password: told beside the new password.
    await current.fill(DEMO_PASSWORD);
    await newPassword.fill('Password123');
    await confirm.fill('Password123');
    await section.getByRole('button', { name: 'Change password' }).click();
    await section.getByText('This password is too common. Choose another.').waitFor();
    expect(await newPassword.getAttribute('aria-invalid')).toBe('true');
    await expectAccessible(page, 'profile, common new password');

    // The right one: a success notification, the fields cleared.
    await newPassword.fill(strong);
    await confirm.fill(strong);
    await section.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('Password changed').waitFor();
    expect(await current.inputValue()).toBe('');
    await expectAccessible(page, 'profile, password changed');

    // This console is still signed in; the new password signs in, the old one does not.
    await page.keyboard.press('Escape');
    await profile.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: /user menu/i }).waitFor();
    await expect(apiSignIn(env.api.url, email, strong)).resolves.toMatchObject({
      token: expect.any(String),
    });
    await expect(apiSignIn(env.api.url, email, DEMO_PASSWORD)).rejects.toThrow(/401/);
    await context.close();
  });
});
