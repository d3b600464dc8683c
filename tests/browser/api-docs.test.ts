import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../infra/src/free-port';
import { startAuthStack, type AuthStack } from '../auth/support';
import { launchBrowser } from '../support/browser';
import { apiSignIn, newPage } from './auth-support';

/**
 * Issue 20, as a partner meets the API first: the interactive docs at /api/docs render the
 * OpenAPI 3.1 document (an invalid one shows an error instead), group operations by feature,
 * mark which need sign-in, and let the partner authorize with a session token and try an
 * operation against `servers` (the deployment's PUBLIC_URL).
 */
let stack: AuthStack;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  const port = await freePort();
  stack = await startAuthStack({
    worker: false,
    env: { PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}` },
  });
  browser = await launchBrowser();
  ({ page } = await newPage(browser));
});

afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

const operation = (method: string, path: string): Locator =>
  page.locator(`.opblock-${method}`).filter({
    has: page.locator('.opblock-summary-path', { hasText: new RegExp(`^${path}$`) }),
  });

/** Scrolls down a screen at a time until `target` is drawn, or the page ends. */
async function scrollUntilShown(target: Locator): Promise<void> {
  for (;;) {
    if ((await target.count()) > 0) return;
    const moved = await page.evaluate(async () => {
      const before = window.scrollY;
      window.scrollBy(0, window.innerHeight);
      // Two frames: the scroll event, then the list's render of the rows it brought into view.
      await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
      return window.scrollY > before;
    });
    if (!moved) break;
  }
  await target.waitFor({ state: 'attached' });
}

describe('the interactive API docs', () => {
  it('render every feature, mark what needs sign-in, and try an operation with a token', async () => {
    await page.goto(`${stack.api.url}/api/docs`);
    await page.getByRole('heading', { name: /Locus API/ }).waitFor();
    // Swagger UI draws a long list of operations only as the reader scrolls to it (a virtual
    // list), so each feature is looked for the way a partner finds it: by scrolling down.
    for (const tag of ['health', 'auth', 'tracking', 'caseTransfer', 'metrics']) {
      await scrollUntilShown(page.locator(`.opblock-tag[data-tag="${tag}"]`));
    }
    await page.evaluate(async () => {
      window.scrollTo(0, 0);
      await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
    });
    // It shows this instead of the operations when a document does not parse or validate.
    await expect(page.getByText(/Unable to render this definition/i).count()).resolves.toBe(0);

    // Sign-in is public (no padlock); reading the signed-in user needs the session token.
    const signIn = operation('post', '/api/v1/auth/sign-in');
    const currentUser = operation('get', '/api/v1/auth/current-user');
    await scrollUntilShown(signIn);
    await scrollUntilShown(currentUser.locator('.authorization__btn'));
    await expect(signIn.locator('.authorization__btn').count()).resolves.toBe(0);

    const { token } = await apiSignIn(stack.api.url, 'owner@locus.test');
    await page.getByRole('button', { name: 'Authorize' }).first().click();
    const dialog = page.locator('.auth-container').filter({ hasText: 'sessionToken' });
    await dialog.locator('input').fill(token);
    await dialog.getByRole('button', { name: 'Apply credentials' }).click();
    await page.getByRole('button', { name: 'Close' }).first().click();

    // The dialog is at the top of the page: scroll back down to the operation.
    await scrollUntilShown(currentUser);
    await currentUser.locator('.opblock-summary').click();
    await currentUser.getByRole('button', { name: 'Try it out' }).click();
    await currentUser.getByRole('button', { name: 'Execute' }).click();
    const live = currentUser.locator('.live-responses-table');
    await live.waitFor();
    await expect(
      live.locator('tbody .response-col_status').first().textContent(),
    ).resolves.toContain('200');
    await expect(live.textContent()).resolves.toContain('owner@locus.test');
    // The request went where `servers` says, with the token as a bearer header.
    await expect(currentUser.locator('.curl-command').textContent()).resolves.toMatch(
      new RegExp(`${stack.api.url}/api/v1/auth/current-user[\\s\\S]*Authorization: Bearer`),
    );
  }, 60_000);
});
