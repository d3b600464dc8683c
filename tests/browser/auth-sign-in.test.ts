import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, expectAccessibleOnceShown } from '../support/browser';
import {
  DEMO_PASSWORD,
  newPage,
  signInWithForm,
  startAuthEnvironment,
  storedToken,
  type AuthEnvironment,
} from './auth-support';

let env: AuthEnvironment;

beforeAll(async () => {
  env = await startAuthEnvironment();
});

afterAll(async () => {
  await env?.close();
});

describe('signing in', { timeout: 60_000 }, () => {
  it('from the Sign In modal of the site: closes the modal and lands on the dashboard with the user menu', async () => {
    const { page, context } = await newPage(env.browser);
    await page.goto(env.api.url);
    await page.getByRole('button', { name: 'Sign In' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Sign In' });
    await expectAccessibleOnceShown(page, dialog, 'Sign In modal');
    // SPEC.md §3: Stay Signed In defaults to checked.
    expect(await dialog.getByLabel('Stay Signed In').isChecked()).toBe(true);
    await dialog.getByLabel('Email').fill('dispatcher@demo-county.test');
    await dialog.getByRole('textbox', { name: 'Password', exact: true }).fill(DEMO_PASSWORD);
    await dialog.getByRole('button', { name: 'Sign In' }).click();

    await page.waitForURL(`${env.api.url}/dashboard`);
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: /Dana Dispatcher/ }).waitFor();
    await page.screenshot({ path: '/tmp/locus-dashboard.png' });
    expect(await storedToken(page)).toMatch(/.{20,}/);
    await context.close();
  });

  it('shows "Invalid email or password" for a wrong password and for an unknown address', async () => {
    const { page, context } = await newPage(env.browser);
    await page.goto(`${env.api.url}/auth/sign-in`);
    await page.getByLabel('Email').fill('dispatcher2@demo-county.test');
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill('not-the-password');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.getByRole('alert').filter({ hasText: 'Invalid email or password' }).waitFor();
    expect(page.url()).toBe(`${env.api.url}/auth/sign-in`);
    await expectAccessible(page, 'sign-in page, wrong password');

    await page.getByLabel('Email').fill('nobody@nowhere.test');
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.getByRole('alert').filter({ hasText: 'Invalid email or password' }).waitFor();
    await page.screenshot({ path: '/tmp/locus-sign-in-failed.png' });
    expect(await storedToken(page)).toBeNull();
    await context.close();
  });

  it('validates next to the fields before calling the API', async () => {
    const { page, context } = await newPage(env.browser);
    const requests: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/v1/auth/sign-in')) requests.push(request.url());
    });
    await page.goto(`${env.api.url}/auth/sign-in`);
    await page.getByLabel('Email').fill('not-an-email');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.getByText('Enter a valid email').waitFor();
    await page.getByText('Required').waitFor();
    expect(requests).toHaveLength(0);
    await expectAccessible(page, 'sign-in page, fields to fix');
    await context.close();
  });

  it('after five failures says the account is locked and to try again in 10 minutes', async () => {
    const { page, context } = await newPage(env.browser);
    await page.goto(`${env.api.url}/auth/sign-in`);
    await page.getByLabel('Email').fill('teamadmin@demo-county.test');
    for (let attempt = 1; attempt <= 6; attempt += 1) {
      await page.getByRole('textbox', { name: 'Password', exact: true }).fill(`wrong-${attempt}`);
      const answered = page.waitForResponse((response) =>
        response.url().endsWith('/api/v1/auth/sign-in'),
      );
      await page.getByRole('button', { name: 'Sign In' }).click();
      await answered;
    }
    const alert = page.getByRole('alert');
    await alert.filter({ hasText: 'try again in 10 minutes' }).waitFor();
    expect(await alert.textContent()).toContain('Invalid email or password');
    await expectAccessible(page, 'sign-in page, account locked');
    await context.close();
  });
});

describe('signing out', { timeout: 60_000 }, () => {
  it('revokes the token, clears the session and goes to sign-in; the old token gets 401', async () => {
    const { page, context } = await newPage(env.browser);
    await signInWithForm(page, env.api.url, 'dispatcher@neighbour-county.test');
    const token = await storedToken(page);
    expect(token).not.toBeNull();

    await page.getByRole('button', { name: /Nico Neighbour/ }).click();
    await page.getByRole('menuitem', { name: 'Sign Out' }).click();
    await page.waitForURL(`${env.api.url}/auth/sign-in`);
    await page.getByRole('heading', { name: 'Sign In' }).waitFor();
    await expectAccessible(page, 'sign-in page after signing out');
    expect(await storedToken(page)).toBeNull();
    expect(await page.evaluate(() => localStorage.getItem('locus.user'))).toBeNull();

    const reused = await fetch(`${env.api.url}/api/v1/auth/current-user`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(reused.status).toBe(401);

    // Protected pages are closed again.
    await page.goto(`${env.api.url}/dashboard`);
    await page.waitForURL(`${env.api.url}/`);
    await context.close();
  });
});
