import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEMO_PASSWORD,
  newPage,
  startAuthEnvironment,
  storedToken,
  type AuthEnvironment,
} from './auth-support';
import { expectAccessible } from '../support/browser';

let env: AuthEnvironment;
let siteverify: Server;

beforeAll(async () => {
  // Turnstile's siteverify protocol: the token "pass" is a solved captcha.
  siteverify = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      response.setHeader('content-type', 'application/json');
      response.end(
        JSON.stringify({ success: new URLSearchParams(body).get('response') === 'pass' }),
      );
    });
  });
  await new Promise<void>((resolve) => siteverify.listen(0, '127.0.0.1', resolve));
  env = await startAuthEnvironment({
    CAPTCHA_PROVIDER: 'turnstile',
    CAPTCHA_SITE_KEY: 'site-key',
    CAPTCHA_SECRET_KEY: 'secret',
    CAPTCHA_VERIFY_URL: `http://127.0.0.1:${(siteverify.address() as AddressInfo).port}/`,
  });
});

afterAll(async () => {
  await env?.close();
  await new Promise((resolve) => siteverify?.close(resolve));
});

describe('sign-in after repeated failures, with a captcha configured', { timeout: 120_000 }, () => {
  it('asks for the security check, then signs in once it is solved', async () => {
    const { page, context } = await newPage(env.browser);
    // This machine cannot reach the vendor: a stand-in widget that is solved as soon as shown.
    await page.addInitScript(() => {
      (window as unknown as { turnstile: unknown }).turnstile = {
        render(element: HTMLElement, options: { callback(token: string): void }) {
          element.textContent = 'Security check (test widget)';
          setTimeout(() => options.callback('pass'), 0);
          return 'widget';
        },
      };
    });
    await page.goto(`${env.api.url}/auth/sign-in`);
    await page.getByLabel('Email').fill('dispatcher@demo-county.test');
    const password = page.getByRole('textbox', { name: 'Password', exact: true });
    for (let attempt = 1; attempt <= 3; attempt += 1) {
      await password.fill(`wrong-${attempt}`);
      const answered = page.waitForResponse((response) =>
        response.url().endsWith('/api/v1/auth/sign-in'),
      );
      await page.getByRole('button', { name: 'Sign In' }).click();
      await answered;
    }
    expect(await page.getByTestId('captcha').count()).toBe(0);

    // The fourth attempt, even with the right password, needs the check first.
    await password.fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.getByRole('alert').filter({ hasText: 'Solve the security check' }).waitFor();
    await page.getByTestId('captcha').getByText('Security check (test widget)').waitFor();
    expect(await page.getByText('Invalid email or password').count()).toBe(0);
    expect(await storedToken(page)).toBeNull();
    await expectAccessible(page, 'sign-in page, security check asked for');

    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.waitForURL(`${env.api.url}/dashboard`);
    expect(await storedToken(page)).not.toBeNull();
    await context.close();
  });
});
