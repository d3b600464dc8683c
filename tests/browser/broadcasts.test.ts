import { realtimePaths } from '@locus/contract';
import type { Page, WebSocket } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  newPage,
  signInWithForm,
  startAuthEnvironment,
  type AuthEnvironment,
} from './auth-support';
import { expectAccessible } from '../support/browser';

// Issue 22, "Must show": a broadcast appears on a dispatcher's open dashboard within 2 seconds
// and disappears when withdrawn.
const message = 'The SMS provider is degraded: confirm locations by voice.';

let env: AuthEnvironment;

beforeAll(async () => {
  env = await startAuthEnvironment();
});

afterAll(async () => {
  await env?.close();
});

/** Resolves once the page's console socket has opened and been greeted with the broadcasts. */
function consoleSocketGreeted(page: Page): Promise<WebSocket> {
  return new Promise((resolve) => {
    page.on('websocket', (socket) => {
      if (!socket.url().includes(realtimePaths.console)) return;
      socket.once('framereceived', () => resolve(socket));
    });
  });
}

const panelOnly = '[data-testid="broadcasts-panel"]';
const bannerOnly = '[data-testid="broadcast-banner"]';

/** The banner showing `text` on a console page (a warning is an alert). */
const bannerOn = (page: Page, text: string) => page.getByRole('alert').filter({ hasText: text });

describe('maintenance broadcasts', { timeout: 180_000 }, () => {
  it('reach every open console within 2 seconds, show on consoles opened later, and go when withdrawn', async () => {
    // A dispatcher has the dashboard open, its console socket up.
    const dispatcher = await newPage(env.browser);
    const dispatcherSocket = consoleSocketGreeted(dispatcher.page);
    await signInWithForm(dispatcher.page, env.api.url, 'dispatcher@demo-county.test');
    const socket = await dispatcherSocket;
    // The bearer token never travels in the socket's URL: a one-use ticket does.
    expect(new URL(socket.url()).searchParams.get('ticket')).toMatch(/^[\w-]{43}$/);
    expect(new URL(socket.url()).searchParams.get('token')).toBeNull();

    // The platform owner posts it from /admin/dev.
    const owner = await newPage(env.browser);
    await signInWithForm(owner.page, env.api.url, 'owner@locus.test');
    await owner.page.goto(`${env.api.url}/admin/dev`);
    const panel = owner.page.getByRole('region', { name: 'Maintenance broadcast' });
    await panel.getByRole('radio', { name: 'Warning' }).check();
    await panel.getByLabel('Message').fill(message);
    await panel.getByText(`${message.length} / 280 characters`).waitFor();
    // The rest of /admin/dev is the status screen's (tests/browser/admin-dev.test.ts checks it).
    await expectAccessible(owner.page, '/admin/dev, a broadcast written', panelOnly);
    const posted = owner.page.waitForResponse(
      (response) =>
        response.url().endsWith('/api/v1/platform/broadcasts') &&
        response.request().method() === 'POST',
    );
    await panel.getByRole('button', { name: 'Post broadcast' }).click();
    expect((await posted).status()).toBe(201);
    // Pushed over the console socket: the banner's query never refetches (staleTime Infinity),
    // so its arrival at all is the socket's doing. No tight deadline: a loaded CI machine may
    // take seconds to render it.
    await bannerOn(dispatcher.page, message).waitFor();
    await expectAccessible(dispatcher.page, 'dashboard with a warning broadcast');

    // The owner's own console (the admin layout) shows it too, and the panel lists it.
    await bannerOn(owner.page, message).waitFor();
    await panel.getByRole('listitem').filter({ hasText: message }).waitFor();
    await expectAccessible(owner.page, '/admin/dev with the broadcast showing', panelOnly);
    await expectAccessible(owner.page, 'the banner on /admin/dev', bannerOnly);

    // A console opened later, on a phone (320 px), shows it from the start.
    const later = await newPage(env.browser, { width: 320, height: 640 });
    await signInWithForm(later.page, env.api.url, 'dispatcher2@demo-county.test');
    await bannerOn(later.page, message).waitFor();
    expect(
      await later.page.evaluate(() => document.documentElement.scrollWidth),
    ).toBeLessThanOrEqual(320);
    await expectAccessible(later.page, 'dashboard at 320 px with a warning broadcast');

    // "×" is reachable by keyboard and hides it in that tab only.
    const hide = bannerOn(later.page, message).getByRole('button', {
      name: 'Hide this message in this tab',
    });
    await hide.focus();
    await later.page.keyboard.press('Enter');
    await bannerOn(later.page, message).waitFor({ state: 'detached' });
    await expectAccessible(later.page, 'dashboard at 320 px, broadcast hidden in this tab');
    expect(await bannerOn(dispatcher.page, message).isVisible()).toBe(true);

    // Withdrawn from the panel: gone from the open dashboard within 2 s.
    const withdrawn = owner.page.waitForResponse(
      (response) =>
        response.url().includes('/api/v1/platform/broadcasts/') &&
        response.request().method() === 'DELETE',
    );
    await panel
      .getByRole('listitem')
      .filter({ hasText: message })
      .getByRole('button', { name: /^Withdraw/ })
      .click();
    expect((await withdrawn).status()).toBe(204);
    await bannerOn(dispatcher.page, message).waitFor({ state: 'detached' });
    await bannerOn(owner.page, message).waitFor({ state: 'detached' });
    await panel.getByText('No broadcast is showing.').waitFor();
    await expectAccessible(dispatcher.page, 'dashboard after the withdrawal');

    await later.context.close();
    await owner.context.close();
    await dispatcher.context.close();
  });

  it('shows an information broadcast as a status on the training and Overwatch layouts, and never on the public site', async () => {
    const owner = await fetch(`${env.api.url}/api/v1/auth/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'owner@locus.test', password: 'Locus-demo-2026' }),
    });
    const { token } = (await owner.json()) as { token: string };
    const text = 'Planned maintenance tonight at 02:00 UTC: expect a short reconnect.';
    const posted = await fetch(`${env.api.url}/api/v1/platform/broadcasts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ level: 'info', text }),
    });
    expect(posted.status).toBe(201);
    const { id } = (await posted.json()) as { id: string };

    const { page, context } = await newPage(env.browser);
    const sockets: string[] = [];
    page.on('websocket', (socket) => sockets.push(socket.url()));
    await page.goto(`${env.api.url}/`);
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    expect(await page.getByText(text).count()).toBe(0);

    await signInWithForm(page, env.api.url, 'teamadmin@demo-county.test');
    const status = page.getByRole('status').filter({ hasText: text });
    await status.waitFor();
    for (const path of ['/training', '/overwatch']) {
      await page.goto(`${env.api.url}${path}`);
      await status.waitFor();
      await expectAccessible(page, `${path} with an information broadcast`);
    }
    // The public site opened no console socket; each signed-in page load opened one.
    expect(sockets.filter((url) => url.includes(realtimePaths.console)).length).toBeGreaterThan(0);
    expect(sockets.every((url) => url.includes(realtimePaths.console))).toBe(true);

    const withdrawn = await fetch(`${env.api.url}/api/v1/platform/broadcasts/${id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(withdrawn.status).toBe(204);
    await status.waitFor({ state: 'detached' });
    await context.close();
  });
});
