import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, expectAccessibleOnceShown } from '../support/browser';
import {
  apiSignIn,
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

/** The code the authenticator app shows `steps` 30-second steps from now. */
const codeFor = (secret: string, steps = 0) =>
  generate({ secret, epoch: Math.floor(Date.now() / 1000) + steps * 30 });

describe('two-step sign-in with an authenticator app', { timeout: 120_000 }, () => {
  it('is set up from the profile, then asked for after the password', async () => {
    const { page, context } = await newPage(env.browser);
    await signInWithForm(page, env.api.url, 'dispatcher@demo-county.test');
    await page.getByRole('button', { name: /Dana Dispatcher/ }).click();
    await page.getByRole('menuitem', { name: 'Profile' }).click();
    const profile = page.getByRole('dialog', { name: 'Profile' });
    const setUp = profile.getByRole('button', { name: 'Set up authenticator app' });
    await expectAccessibleOnceShown(page, setUp, 'profile, two-step sign-in off');
    await profile.getByRole('heading', { name: 'Active sessions' }).waitFor();
    await profile.getByText('This session').waitFor();

    // Enrolment asks for the password again: a session left open cannot add its own app.
    await profile.getByLabel('Your password').fill(DEMO_PASSWORD);
    await setUp.click();
    await profile.getByRole('img', { name: 'QR code for your authenticator app' }).waitFor();
    const secret = await profile.getByLabel('Setup key').inputValue();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await expectAccessible(page, 'profile, scanning the QR code');

    await profile.getByLabel('Code from the app').fill(await codeFor(secret));
    await profile.getByRole('button', { name: 'Turn on' }).click();
    const codes = profile.getByRole('list', { name: 'Recovery codes' });
    await codes.waitFor();
    expect(await codes.getByRole('listitem').count()).toBe(10);
    await expectAccessible(page, 'profile, recovery codes shown once');
    await profile.getByRole('button', { name: 'I have saved my recovery codes' }).click();
    await profile.getByText('10 recovery codes left').waitFor();
    await page.keyboard.press('Escape');
    await profile.waitFor({ state: 'detached' });

    // Signed out, the password alone no longer opens the console.
    await page.goto(`${env.api.url}/auth/sign-out`);
    await page.waitForURL(`${env.api.url}/auth/sign-in`);
    await page.getByLabel('Email').fill('dispatcher@demo-county.test');
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Sign In' }).click();
    const code = page.getByLabel('Authentication code');
    await code.waitFor();
    expect(await storedToken(page)).toBeNull();
    await expect.poll(() => code.evaluate((node) => node === document.activeElement)).toBe(true);
    await expectAccessible(page, 'sign-in, code step');

    const right = await codeFor(secret, 1);
    await code.fill(right === '000000' ? '111111' : '000000');
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('alert').filter({ hasText: 'That code is not right' }).waitFor();
    expect(page.url()).toBe(`${env.api.url}/auth/sign-in`);
    await expectAccessible(page, 'sign-in, wrong code');

    await code.fill(right);
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL(`${env.api.url}/dashboard`);
    await page.getByRole('button', { name: /Dana Dispatcher/ }).waitFor();
    expect(await storedToken(page)).toMatch(/.{20,}/);
    await expectAccessible(page, 'dashboard after two-step sign-in');
    await context.close();
  });

  it('is set up first by a member of a team that requires it, before the console opens', async () => {
    const admin = await apiSignIn(env.api.url, 'owner@locus.test');
    const team = await env.database.db
      .selectFrom('teams')
      .select('id')
      .where('team_name', '=', 'Neighbouring County')
      .executeTakeFirstOrThrow();
    const set = await fetch(`${env.api.url}/api/v1/teams/${team.id}/security`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${admin.token}` },
      body: JSON.stringify({ requireMfa: true }),
    });
    expect(set.status).toBe(200);

    const { page, context } = await newPage(env.browser);
    await page.goto(`${env.api.url}/auth/sign-in`);
    await page.getByLabel('Email').fill('dispatcher@neighbour-county.test');
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.waitForURL(`${env.api.url}/dashboard`);
    const setUp = page.getByRole('button', { name: 'Set up authenticator app' });
    await page.getByRole('heading', { name: 'Set up two-step sign-in' }).waitFor();
    await expectAccessibleOnceShown(page, setUp, 'team requires two-step sign-in');
    expect(await page.getByRole('button', { name: /user menu/i }).count()).toBe(0);

    await page.getByLabel('Your password').fill(DEMO_PASSWORD);
    await setUp.click();
    const secret = await page.getByLabel('Setup key').inputValue();
    await page.getByLabel('Code from the app').fill(await codeFor(secret));
    await page.getByRole('button', { name: 'Turn on' }).click();
    await page.getByRole('button', { name: 'I have saved my recovery codes' }).click();
    // Enrolled: the console itself.
    await page.getByRole('button', { name: /user menu/i }).waitFor();
    await context.close();
  });
});
