import { createServer, connect, type AddressInfo, type Server } from 'node:net';
import type { BrowserContext, Page } from 'playwright-core';
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

/**
 * Chromium refuses WebAuthn on an IP-address origin, and the test API listens on 127.0.0.1 at a
 * port chosen when it starts. So the page loads the app at http://localhost:<port of a small TCP
 * relay> — a secure context — and the API is told that origin and the RP ID 'localhost'.
 */
let relay: Server;
let baseUrl: string;
let env: AuthEnvironment;

beforeAll(async () => {
  let target = 0;
  relay = createServer((socket) => {
    const upstream = connect(target, '127.0.0.1');
    socket.pipe(upstream).pipe(socket);
    const end = () => {
      socket.destroy();
      upstream.destroy();
    };
    socket.on('error', end);
    upstream.on('error', end);
  });
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://localhost:${(relay.address() as AddressInfo).port}`;
  env = await startAuthEnvironment({ WEBAUTHN_RP_ID: 'localhost', WEBAUTHN_ORIGIN: baseUrl });
  target = Number(new URL(env.api.url).port);
});

afterAll(async () => {
  await env?.close();
  await new Promise((resolve) => relay?.close(resolve));
});

/** Chromium's virtual authenticator: a platform authenticator that verifies the user at once. */
async function withVirtualAuthenticator(context: BrowserContext, page: Page) {
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
    },
  });
  return {
    credentials: async () =>
      (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials,
  };
}

describe('two-step sign-in with a passkey', { timeout: 120_000 }, () => {
  it('is added from the profile, then offered after the password', async () => {
    const { page, context } = await newPage(env.browser);
    const authenticator = await withVirtualAuthenticator(context, page);
    await signInWithForm(page, baseUrl, 'dispatcher@demo-county.test');
    await page.getByRole('button', { name: /Dana Dispatcher/ }).click();
    await page.getByRole('menuitem', { name: 'Profile' }).click();
    const profile = page.getByRole('dialog', { name: 'Profile' });
    const passkeys = profile.getByRole('region', { name: 'Passkeys' });
    const add = passkeys.getByRole('button', { name: 'Add a passkey' });
    await expectAccessibleOnceShown(page, add, 'profile, no passkeys');

    await add.click();
    const name = passkeys.getByLabel('Passkey name');
    await expect.poll(() => name.evaluate((node) => node === document.activeElement)).toBe(true);
    await expectAccessible(page, 'profile, naming a new passkey');
    await passkeys.getByRole('button', { name: 'Create passkey' }).click();
    // Both the name and the current password are asked for.
    await expect.poll(() => passkeys.getByText('Required').count()).toBe(2);
    await name.fill('Work laptop');
    await passkeys.getByLabel('Your password').fill(DEMO_PASSWORD);
    await passkeys.getByRole('button', { name: 'Create passkey' }).click();
    const list = passkeys.getByRole('list', { name: 'Your passkeys' });
    await list.getByText('Work laptop').waitFor();
    await list.getByText(/not used yet/).waitFor();
    expect(await authenticator.credentials()).toHaveLength(1);
    await expectAccessible(page, 'profile, one passkey');
    await page.keyboard.press('Escape');
    await profile.waitFor({ state: 'detached' });

    // Signed out, the password alone no longer opens the console: the passkey is asked for.
    await page.goto(`${baseUrl}/auth/sign-out`);
    await page.waitForURL(`${baseUrl}/auth/sign-in`);
    await page.getByLabel('Email').fill('dispatcher@demo-county.test');
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Sign In' }).click();
    const usePasskey = page.getByRole('button', { name: 'Use a passkey' });
    await usePasskey.waitFor();
    expect(await storedToken(page)).toBeNull();
    // A passkey is this user's only second factor: no code field.
    expect(await page.getByLabel('Authentication code').count()).toBe(0);
    await expectAccessible(page, 'sign-in, passkey step');

    await usePasskey.click();
    await page.waitForURL(`${baseUrl}/dashboard`);
    await page.getByRole('button', { name: /Dana Dispatcher/ }).waitFor();
    expect(await storedToken(page)).toMatch(/.{20,}/);
    const [credential] = await authenticator.credentials();
    expect(credential?.signCount).toBeGreaterThan(0);
    await expectAccessible(page, 'dashboard after signing in with a passkey');

    // The profile shows it used, and removing it (asked twice) leaves none.
    await page.getByRole('button', { name: /Dana Dispatcher/ }).click();
    await page.getByRole('menuitem', { name: 'Profile' }).click();
    await list.getByText(/last used/).waitFor();
    await list.getByRole('button', { name: 'Remove Work laptop' }).click();
    await list.getByText('Remove this passkey?').waitFor();
    await expectAccessible(page, 'profile, confirming removal of a passkey');
    await list.getByRole('button', { name: 'Yes, remove Work laptop' }).click();
    await passkeys.getByText(/Sign in with a passkey on this device/).waitFor();
    expect(await list.count()).toBe(0);
    await context.close();
  });
});
