import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEMO_PASSWORD,
  apiSignIn,
  linkIn,
  newPage,
  signInWithForm,
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

/** E-mail links carry PUBLIC_URL; the test API listens on its own port. */
function onTestApi(link: URL): string {
  return `${env.api.url}${link.pathname}${link.search}`;
}

async function register(email: string) {
  const response = await fetch(`${env.api.url}/api/v1/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      firstName: 'Morgan',
      lastName: 'Medic',
      email,
      password: 'first-password',
      agreedToTermsOfService: true,
    }),
  });
  expect(response.status).toBe(201);
}

async function emailConfirmed(email: string): Promise<boolean> {
  const row = await env.database.db
    .selectFrom('users')
    .select('email_confirmed_at')
    .where('email', '=', email)
    .executeTakeFirstOrThrow();
  return row.email_confirmed_at !== null;
}

describe('e-mail confirmation', { timeout: 60_000 }, () => {
  it('confirms the address through the link in the outbox, once', async () => {
    await register('morgan@demo-county.test');
    const email = await waitForEmail(env.api.url, 'morgan@demo-county.test', /email-confirmation/);
    const link = linkIn(email, '/register/email-confirmation');
    expect(link.searchParams.get('verification-code')).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const { page, context } = await newPage(env.browser);
    await page.goto(onTestApi(link));
    await page.getByRole('heading', { name: 'Your email is confirmed' }).waitFor();
    await expectAccessible(page, 'email confirmed');
    await page.screenshot({ path: '/tmp/locus-email-confirmed.png' });
    expect(await emailConfirmed('morgan@demo-county.test')).toBe(true);

    // A code works once: the same link now offers a new one.
    await page.reload();
    await page.getByRole('heading', { name: 'This link is invalid or has expired' }).waitFor();
    await expectAccessible(page, 'confirmation link used twice');
    await context.close();
  });

  it('says an invalid link is invalid, and sends a new link from the resend page', async () => {
    await register('jordan@demo-county.test');
    const { page, context } = await newPage(env.browser);
    await page.goto(`${env.api.url}/register/email-confirmation?verification-code=not-a-code`);
    await page.getByRole('heading', { name: 'This link is invalid or has expired' }).waitFor();
    await page.getByRole('link', { name: 'Send a new confirmation link' }).click();
    await page.waitForURL(`${env.api.url}/register/email-confirmation/resend`);
    await page.getByRole('heading', { name: 'Resend the confirmation email' }).waitFor();
    await expectAccessible(page, 'resend confirmation');
    await page.getByLabel('Email').fill('jordan@demo-county.test');
    await page.getByRole('button', { name: 'Send a new link' }).click();
    await page.waitForURL(`${env.api.url}/register/email-confirmation/email-sent`);
    await page.getByText('jordan@demo-county.test').waitFor();
    await expectAccessible(page, 'confirmation email sent');

    // The newest e-mail holds a working link.
    await expect
      .poll(
        async () => {
          const response = await fetch(
            `${env.api.url}/api/v1/dev/outbox/email?to=jordan%40demo-county.test`,
          );
          return ((await response.json()) as unknown[]).length;
        },
        { timeout: 20_000 },
      )
      .toBeGreaterThanOrEqual(2);
    const newest = await waitForEmail(env.api.url, 'jordan@demo-county.test', /email-confirmation/);
    await page.goto(onTestApi(linkIn(newest, '/register/email-confirmation')));
    await page.getByRole('heading', { name: 'Your email is confirmed' }).waitFor();
    expect(await emailConfirmed('jordan@demo-county.test')).toBe(true);
    await context.close();
  });
});

describe('forgot and reset password', { timeout: 60_000 }, () => {
  it('sends a reset link, sets the new password, and only the new one signs in', async () => {
    const address = 'dispatcher2@demo-county.test';
    const before = await apiSignIn(env.api.url, address);
    const { page, context } = await newPage(env.browser);
    await page.goto(`${env.api.url}/auth/sign-in`);
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.waitForURL(`${env.api.url}/auth/forgot-password`);
    await page.getByRole('heading', { name: 'Forgot your password?' }).waitFor();
    await expectAccessible(page, 'forgot password');
    await page.getByLabel('Email').fill(address);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await page.waitForURL(`${env.api.url}/auth/forgot-password/sent`);
    await page.getByRole('heading', { name: 'Check your email' }).waitFor();
    await expectAccessible(page, 'reset link sent');

    const email = await waitForEmail(env.api.url, address, /forgot-password\/reset/);
    const link = linkIn(email, '/auth/forgot-password/reset');
    await page.goto(onTestApi(link));
    await page.getByLabel(/^New password/).fill('a-brand-new-password');
    await page.getByLabel('Confirm new password').fill('something-else');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('The passwords do not match').waitFor();
    await expectAccessible(page, 'new password, not confirmed');
    await page.getByLabel('Confirm new password').fill('a-brand-new-password');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.waitForURL(`${env.api.url}/auth/forgot-password/success`);
    await page.getByRole('heading', { name: 'Password changed' }).waitFor();
    await expectAccessible(page, 'password changed');
    await page.screenshot({ path: '/tmp/locus-password-changed.png' });

    // Every earlier session is signed out by the change.
    const old = await fetch(`${env.api.url}/api/v1/auth/current-user`, {
      headers: { authorization: `Bearer ${before.token}` },
    });
    expect(old.status).toBe(401);

    await page.getByRole('link', { name: 'Sign In' }).click();
    await page.getByLabel('Email').fill(address);
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.getByRole('alert').filter({ hasText: 'Invalid email or password' }).waitFor();
    await context.close();

    const fresh = await newPage(env.browser);
    await signInWithForm(fresh.page, env.api.url, address, 'a-brand-new-password');
    await fresh.context.close();

    // The link is single-use.
    const again = await newPage(env.browser);
    await again.page.goto(onTestApi(link));
    await again.page.getByLabel(/^New password/).fill('yet-another-password');
    await again.page.getByLabel('Confirm new password').fill('yet-another-password');
    await again.page.getByRole('button', { name: 'Change password' }).click();
    await again.page.getByRole('heading', { name: 'This link no longer works' }).waitFor();
    await expectAccessible(again.page, 'reset link used twice');
    await again.context.close();
  });

  it('answers an unknown address exactly like a known one', async () => {
    const { page, context } = await newPage(env.browser);
    await page.goto(`${env.api.url}/auth/forgot-password`);
    await page.getByLabel('Email').fill('nobody@nowhere.test');
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await page.waitForURL(`${env.api.url}/auth/forgot-password/sent`);
    await page.getByRole('heading', { name: 'Check your email' }).waitFor();
    await context.close();
  });
});
