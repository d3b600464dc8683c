import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator } from 'playwright-core';
import { expectAccessible, expectAccessibleOnceShown, tabTo } from '../support/browser';
import {
  newPage,
  signInWithForm,
  startAuthEnvironment,
  type AuthEnvironment,
} from './auth-support';

// Issue 15, "Must show": the enterprise team admin creates a key on the API page, sees it once,
// uses it, and revokes it; the partner API refuses it at once. (A basic-level team's admin is
// refused the page and has no API section: admin-teams.test.ts.)

let env: AuthEnvironment;

beforeAll(async () => {
  env = await startAuthEnvironment();
});

afterAll(async () => {
  await env?.close();
});

const url = (path: string) => `${env.api.url}${path}`;

const partnerCallLists = (key: string) =>
  fetch(url('/api/v1/partner/call-lists'), { headers: { authorization: `Bearer ${key}` } });

describe('the API page', () => {
  it('lets an enterprise team admin create a key, see it once, and revoke it', async () => {
    const { page, context } = await newPage(env.browser);
    await signInWithForm(page, env.api.url, 'teamadmin@demo-county.test');
    await page.goto(url('/admin'));
    // The list is held back once, so that its loading state is seen and checked too.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/v1/teams/*/api-keys', async (route) => {
      await held;
      await route.continue();
    });
    await page
      .getByRole('navigation', { name: 'Admin sections' })
      .getByRole('link', { name: 'API', exact: true })
      .click();
    await page.waitForURL(url('/admin/admin-api'));
    const team = page.getByRole('region', { name: 'Demo County 911' });
    await team.getByRole('status', { name: 'Loading API keys' }).waitFor();
    await expectAccessible(page, 'API page, keys loading');
    release();
    await team.getByText('No API keys yet').waitFor();
    // Only once the held request has been answered: a handler removed while it waits has its
    // request continued for it, and its own continue() then fails ("already handled").
    await page.unroute('**/api/v1/teams/*/api-keys');
    await expectAccessible(page, 'API page, no keys');

    // Create: the name is required, and said so.
    await team.getByRole('button', { name: 'Create API key for Demo County 911' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create API key' });
    await expectAccessibleOnceShown(page, dialog, 'create key dialog');
    await dialog.getByRole('button', { name: 'Create key' }).click();
    await dialog.getByText('Give the key a name').waitFor();
    await expectAccessible(page, 'create key dialog, name missing');
    await dialog.getByRole('textbox', { name: 'Name' }).fill('CAD integration');
    await dialog.getByRole('checkbox', { name: 'locate:write' }).check();
    await dialog.getByRole('button', { name: 'Create key' }).click();

    // Shown once, with what to do with it.
    const shown = page.getByRole('dialog', { name: 'Your new API key' });
    await shown.getByText('Copy this key now').waitFor();
    await expectAccessible(page, 'new key shown once');
    // Escape does not lose the only copy.
    await page.keyboard.press('Escape');
    await shown.getByText('Copy this key now').waitFor();
    const secret = await shown.getByRole('textbox').inputValue();
    expect(secret).toMatch(/^lk_[A-Za-z0-9]{40}$/);
    expect((await partnerCallLists(secret)).status).toBe(200);
    await shown.getByRole('button', { name: 'Done' }).click();
    await shown.waitFor({ state: 'detached' });

    // Listed by its prefix only; the page holds the secret nowhere any more.
    const table = team.getByRole('table', { name: 'API keys of Demo County 911' });
    const row = table.getByRole('row').filter({ hasText: 'CAD integration' });
    await row.getByText(`${secret.slice(0, 11)}…`).waitFor();
    await expect.poll(() => row.getByText('Active').count()).toBe(1);
    expect(await row.textContent()).toContain('locate:write');
    expect(await row.textContent()).toContain('sessions:read');
    expect(await page.content()).not.toContain(secret.slice(11));
    await expectAccessible(page, 'API page, one key');

    // Revoke asks first, then the key stops at once.
    await row.getByRole('button', { name: 'Revoke CAD integration' }).click();
    const confirm = page.getByRole('dialog', { name: 'Revoke API key' });
    await expectAccessibleOnceShown(page, confirm, 'revoke key dialog');
    await confirm.getByRole('button', { name: 'Revoke key' }).click();
    await confirm.waitFor({ state: 'detached' });
    await row.getByText('Revoked').waitFor();
    expect(await row.getByRole('button', { name: /Revoke/ }).count()).toBe(0);
    const refused = await partnerCallLists(secret);
    expect(refused.status).toBe(401);
    await expectAccessible(page, 'API page, key revoked');
    await context.close();
  }, 120_000);

  it('works with the keyboard alone: create, read the key, close, revoke', async () => {
    const { page, context } = await newPage(env.browser);
    await signInWithForm(page, env.api.url, 'teamadmin@demo-county.test');
    await page.goto(url('/admin/admin-api'));
    await page.getByRole('region', { name: 'Demo County 911' }).waitFor();
    const create = page.getByRole('button', { name: 'Create API key for Demo County 911' });
    const focused = (locator: Locator) =>
      locator.evaluate((element) => element === document.activeElement).catch(() => false);

    await tabTo(page, create);
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Create API key' });
    // The name field takes the focus (once the dialog has opened); Space toggles a scope.
    const name = dialog.getByRole('textbox', { name: 'Name' });
    await expect.poll(() => focused(name)).toBe(true);
    await page.keyboard.type('Keyboard key');
    await expect.poll(() => name.inputValue()).toBe('Keyboard key');
    const scope = dialog.getByRole('checkbox', { name: 'locate:write' });
    await tabTo(page, scope);
    await page.keyboard.press('Space');
    await expect.poll(() => scope.isChecked()).toBe(true);
    await tabTo(page, dialog.getByRole('button', { name: 'Create key' }));
    await page.keyboard.press('Enter');

    // The key is shown with Done focused; Enter closes it, and the focus goes back to the button
    // that opened the dialog (not to the top of the page).
    const shown = page.getByRole('dialog', { name: 'Your new API key' });
    await shown.getByText('Copy this key now').waitFor();
    await expect.poll(() => focused(shown.getByRole('button', { name: 'Done' }))).toBe(true);
    await page.keyboard.press('Enter');
    await shown.waitFor({ state: 'detached' });
    await expect.poll(() => focused(create)).toBe(true);

    // Revoke: Cancel has the focus first, so Enter alone never revokes by accident.
    await tabTo(page, page.getByRole('button', { name: 'Revoke Keyboard key' }));
    await page.keyboard.press('Enter');
    const confirm = page.getByRole('dialog', { name: 'Revoke API key' });
    await confirm.waitFor();
    await expect.poll(() => focused(confirm.getByRole('button', { name: 'Cancel' }))).toBe(true);
    await tabTo(page, confirm.getByRole('button', { name: 'Revoke key' }));
    await page.keyboard.press('Enter');
    await confirm.waitFor({ state: 'detached' });
    const row = page.getByRole('row').filter({ hasText: 'Keyboard key' });
    await row.getByText('Revoked').waitFor();
    // Its Revoke button went with the key: the focus goes to Create API key instead of the body.
    await expect.poll(() => focused(create)).toBe(true);
    await context.close();
  }, 120_000);

  it('sends a dispatcher of an enterprise team away from it', async () => {
    // Admins reach /admin; the dispatcher is sent away by the route guard.
    const { page, context } = await newPage(env.browser);
    await signInWithForm(page, env.api.url, 'dispatcher@demo-county.test');
    await page.goto(url('/admin/admin-api'));
    await page.waitForURL(url('/dashboard'));
    await context.close();
  });
});
