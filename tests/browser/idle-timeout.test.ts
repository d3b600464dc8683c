import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from '../support/browser';
import {
  newPage,
  signInWithForm,
  startAuthEnvironment,
  type AuthEnvironment,
} from './auth-support';

let env: AuthEnvironment;

// An 8-second idle timeout: the warning comes 4 seconds before it (half the timeout, at most
// SESSION_IDLE_WARNING_SECONDS), so the test sees both without waiting half an hour.
beforeAll(async () => {
  env = await startAuthEnvironment({ SESSION_IDLE_TIMEOUT_SECONDS: '8' });
});

afterAll(async () => {
  await env?.close();
});

describe('the console idle timeout', { timeout: 90_000 }, () => {
  it('warns first, then signs out to the sign-in page with the reason', async () => {
    const { page, context } = await newPage(env.browser);
    await signInWithForm(page, env.api.url, 'dispatcher@demo-county.test');
    const warning = page.getByRole('alertdialog', { name: 'Are you still there?' });
    await warning.waitFor({ timeout: 15_000 });
    expect(page.url()).toBe(`${env.api.url}/dashboard`);
    expect(await warning.textContent()).toContain('You will be signed out in');
    // Focus is on the way to stay.
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.textContent))
      .toBe('Stay signed in');
    await expectAccessible(page, 'idle warning');

    await page.waitForURL(`${env.api.url}/auth/sign-in`, { timeout: 15_000 });
    await page
      .getByRole('alert')
      .filter({ hasText: 'You were signed out after 8 seconds without activity.' })
      .waitFor();
    expect(await page.evaluate(() => localStorage.getItem('locus.token'))).toBeNull();
    await expectAccessible(page, 'sign-in page after the idle timeout');
    await context.close();
  });

  it('keeps the session when the user chooses to stay', async () => {
    const { page, context } = await newPage(env.browser);
    await signInWithForm(page, env.api.url, 'dispatcher2@demo-county.test');
    const warning = page.getByRole('alertdialog', { name: 'Are you still there?' });
    await warning.waitFor({ timeout: 15_000 });
    const firstWarning = Date.now();
    await warning.getByRole('button', { name: 'Stay signed in' }).click();
    await warning.waitFor({ state: 'detached' });

    // The timer started again: the next warning comes a full idle period after the click, past
    // the moment the first one would have signed out, and the console is still there.
    await warning.waitFor({ timeout: 15_000 });
    expect(Date.now() - firstWarning).toBeGreaterThan(4_000);
    expect(page.url()).toBe(`${env.api.url}/dashboard`);
    await warning.getByRole('button', { name: 'Stay signed in' }).click();
    await warning.waitFor({ state: 'detached' });
    // The API agrees: the session is still good.
    const status = await page.evaluate(async () => {
      const response = await fetch('/api/v1/auth/current-user', {
        headers: { authorization: `Bearer ${localStorage.getItem('locus.token')}` },
      });
      return response.status;
    });
    expect(status).toBe(200);
    await context.close();
  });
});
