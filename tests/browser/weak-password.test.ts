import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  linkIn,
  newPage,
  startAuthEnvironment,
  waitForEmail,
  type AuthEnvironment,
} from './auth-support';
import { expectAccessible } from '../support/browser';

let env: AuthEnvironment;

beforeAll(async () => {
  env = await startAuthEnvironment();
});

afterAll(async () => {
  await env?.close();
});

const tooCommon = 'This password is too common. Choose another.';
const passphrase = 'lighthouse keeper counts 42 gulls';

async function openCreateAccount(page: Page) {
  await page.goto(env.api.url);
  await page.getByRole('button', { name: 'Sign Up', exact: true }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Create Account' });
  await dialog.waitFor();
  return dialog;
}

describe('choosing a password', { timeout: 240_000 }, () => {
  it('on sign-up: the meter rates it, and a common password is refused with the reason', async () => {
    const { page, context } = await newPage(env.browser);
    const dialog = await openCreateAccount(page);
    await dialog.getByLabel('First name').fill('Riley');
    await dialog.getByLabel('Last name').fill('Weakpass');
    await dialog.getByLabel('Email').fill('riley.weak@demo-county.test');
    const password = dialog.getByLabel('8 characters or more');

    await password.fill('password123');
    const meter = dialog.getByTestId('password-strength');
    await meter.getByText('Strength: Very weak').waitFor();
    await meter.getByText('This is a commonly used password.').waitFor();
    expect(await dialog.getByRole('progressbar', { name: /Very weak/ }).count()).toBe(1);
    await expectAccessible(page, 'Create Account, weak password rated');

    await password.fill(passphrase);
    await meter.getByText('Strength: Very strong').waitFor();
    await expectAccessible(page, 'Create Account, strong password rated');

    // The server decides: a common password is refused even when the form is otherwise complete.
    await password.fill('password123');
    await dialog.getByRole('textbox', { name: 'Agency', exact: true }).fill('Demo County');
    await page.getByRole('option', { name: /Demo County 911 Communications/ }).click();
    await dialog.getByRole('button', { name: 'Terms of Use and Service' }).click();
    const terms = page.getByRole('dialog', { name: /Terms of Use/ });
    await terms.getByRole('button', { name: 'I accept' }).click();
    await terms.waitFor({ state: 'detached' });
    await dialog.getByRole('button', { name: 'Create Account' }).click();
    await dialog.getByRole('alert').filter({ hasText: tooCommon }).waitFor();
    // Also under the field it is about.
    expect(await dialog.getByText(tooCommon).count()).toBe(2);
    await expectAccessible(page, 'Create Account, common password refused');
    const created = await env.database.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'riley.weak@demo-county.test')
      .execute();
    expect(created).toEqual([]);
    await context.close();
  });

  it('on password reset: the meter shows, and a common password is refused with the reason', async () => {
    const address = 'dispatcher2@demo-county.test';
    await fetch(`${env.api.url}/api/v1/auth/forgot-password`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: address }),
    });
    const email = await waitForEmail(env.api.url, address, /forgot-password\/reset/);
    const link = linkIn(email, '/auth/forgot-password/reset');

    const { page, context } = await newPage(env.browser);
    await page.goto(`${env.api.url}${link.pathname}${link.search}`);
    await page.getByLabel(/^New password/).fill('iloveyou1');
    await page.getByLabel('Confirm new password').fill('iloveyou1');
    await page
      .getByTestId('password-strength')
      .getByText(/Strength: (Very weak|Weak)/)
      .waitFor();
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByRole('alert').filter({ hasText: tooCommon }).waitFor();
    await expectAccessible(page, 'reset password, common password refused');

    // The same link still works for a better password.
    await page.getByLabel(/^New password/).fill(passphrase);
    await page.getByLabel('Confirm new password').fill(passphrase);
    await page.getByTestId('password-strength').getByText('Strength: Very strong').waitFor();
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByRole('heading', { name: 'Password changed' }).waitFor();
    await context.close();
  });
});
