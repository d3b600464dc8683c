import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  newPage,
  signInWithForm,
  startAuthEnvironment,
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

describe('the map layout', { timeout: 60_000 }, () => {
  it('edits the profile from the user menu; the modal traps focus and gives it back', async () => {
    const { page, context } = await newPage(env.browser);
    await signInWithForm(page, env.api.url, 'dispatcher2@demo-county.test');
    const userMenu = page.getByRole('button', { name: /Devon Dispatcher/ });
    await userMenu.click();
    await page.getByRole('menuitem', { name: 'Profile' }).click();
    const dialog = page.getByRole('dialog', { name: 'Profile' });
    await dialog.waitFor();

    // Tabbing never leaves the open modal.
    for (let press = 0; press < 8; press += 1) {
      await page.keyboard.press('Tab');
      expect(await dialog.evaluate((node) => node.contains(document.activeElement))).toBe(true);
    }

    await dialog.getByLabel('First name').fill('');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText('Required').waitFor();
    await dialog.getByLabel('First name').fill('Devin');
    await dialog.getByLabel('Phone').fill('+1 202 555 0199');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: /Devin Dispatcher/ }).waitFor();
    // Focus returns to the control that opened the menu.
    await expect
      .poll(() =>
        page
          .getByRole('button', { name: /Devin Dispatcher/ })
          .evaluate((button) => button === document.activeElement),
      )
      .toBe(true);

    const row = await env.database.db
      .selectFrom('users')
      .select(['first_name', 'phone_number'])
      .where('email', '=', 'dispatcher2@demo-county.test')
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ first_name: 'Devin', phone_number: '+1 202 555 0199' });

    // The cached user survives a reload.
    await page.reload();
    await page.getByRole('button', { name: /Devin Dispatcher/ }).waitFor();
    await context.close();
  });

  it("shows the team's custom header and dropdown links, opening in a new tab", async () => {
    await env.database.db
      .updateTable('teams')
      .set({
        custom_content: sql`${JSON.stringify({
          links: {
            header: [{ name: 'County CAD', link: 'https://cad.demo-county.test/' }],
            headerDropdown: [{ name: 'Shift roster', link: 'https://roster.demo-county.test/' }],
          },
        })}::jsonb`,
      })
      .where('team_name', '=', 'Demo County 911')
      .execute();
    const { page, context } = await newPage(env.browser);
    await signInWithForm(page, env.api.url, 'dispatcher@demo-county.test');
    // SPEC.md §2: both lists are items of the user menu (on phones too).
    await page.getByRole('button', { name: /Dana Dispatcher/ }).click();
    const header = page.getByRole('menuitem', { name: 'County CAD' });
    expect(await header.getAttribute('href')).toBe('https://cad.demo-county.test/');
    expect(await header.getAttribute('target')).toBe('_blank');
    const dropdown = page.getByRole('menuitem', { name: 'Shift roster' });
    expect(await dropdown.getAttribute('href')).toBe('https://roster.demo-county.test/');
    expect(await dropdown.getAttribute('target')).toBe('_blank');
    const faq = page.getByRole('menuitem', { name: 'FAQ' });
    expect(await faq.getAttribute('target')).toBe('_blank');
    await page.screenshot({ path: '/tmp/locus-map-menu.png' });
    await context.close();
  });
});

describe('third-party scripts', { timeout: 60_000 }, () => {
  it('load nothing when none is configured', async () => {
    const { page, context } = await newPage(env.browser);
    const foreign: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith(env.api.url)) foreign.push(request.url());
    });
    await page.goto(`${env.api.url}/auth/sign-in`);
    await page.getByRole('heading', { name: 'Sign In' }).waitFor();
    await signInWithForm(page, env.api.url, 'dispatcher@demo-county.test');
    expect(foreign).toEqual([]);
    await context.close();
  });

  it('load the configured chat assistant, hidden on routes whose metadata asks', async () => {
    const { page, context } = await newPage(env.browser);
    const chatUrl = `${env.api.url}/test-chat-assistant.js`;
    // The configuration the API would serve with CHAT_ASSISTANT_SCRIPT_URL set.
    await page.route('**/api/v1/config', async (route) => {
      const response = await route.fetch();
      const config = (await response.json()) as Record<string, unknown>;
      await route.fulfill({ response, json: { ...config, chatAssistantScriptUrl: chatUrl } });
    });
    await page.route(chatUrl, (route) =>
      route.fulfill({
        contentType: 'text/javascript',
        body: `window.chatAssistant = {
          show() { document.documentElement.dataset.testChat = 'shown'; },
          hide() { document.documentElement.dataset.testChat = 'hidden'; },
        };`,
      }),
    );
    const chatState = () => page.evaluate(() => document.documentElement.dataset.testChat ?? '');

    await page.goto(`${env.api.url}/about`);
    await expect.poll(chatState, { timeout: 10_000 }).toBe('shown');
    await signInWithForm(page, env.api.url, 'teamadmin@demo-county.test');
    await expect.poll(chatState, { timeout: 10_000 }).toBe('hidden'); // the dashboard hides it
    await page.getByRole('button', { name: /Terry Admin/ }).click();
    await page.getByRole('menuitem', { name: 'Training Videos' }).click();
    await page.waitForURL(`${env.api.url}/training`);
    await expect.poll(chatState, { timeout: 10_000 }).toBe('shown');
    await page.getByRole('heading', { level: 1, name: 'Training' }).waitFor();
    await expectAccessible(page, '/training');
    await page.getByRole('button', { name: /Terry Admin/ }).click();
    await page.getByRole('menuitem', { name: 'Overwatch' }).click();
    await page.waitForURL(`${env.api.url}/overwatch`);
    await expect.poll(chatState, { timeout: 10_000 }).toBe('hidden');
    expect(await page.locator(`script[src="${chatUrl}"]`).count()).toBe(1);
    await context.close();
  });
});

describe('the DEV page', { timeout: 60_000 }, () => {
  it('lists the demo requests visitors sent, newest first, to the platform owner', async () => {
    const send = (firstName: string, comment?: string) =>
      fetch(`${env.api.url}/api/v1/auth/demo-request`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          firstName,
          lastName: 'Visitor',
          email: `${firstName.toLowerCase()}@county.test`,
          phoneNumber: '+1 202 555 0111',
          companyName: `${firstName} County 911`,
          ...(comment ? { comment } : {}),
        }),
      });
    expect((await send('Avery')).status).toBe(202);
    expect((await send('Blake', 'Two consoles, night shift')).status).toBe(202);

    const { page, context } = await newPage(env.browser);
    await signInWithForm(page, env.api.url, 'owner@locus.test');
    await page.goto(`${env.api.url}/admin/dev`);
    const table = page.getByRole('region', { name: 'Demo requests' }).getByRole('table');
    await table.waitFor();
    const rows = await table.getByRole('row').allTextContents();
    const blake = rows.findIndex((row) => row.includes('Blake Visitor'));
    const avery = rows.findIndex((row) => row.includes('Avery Visitor'));
    expect(blake).toBeGreaterThan(0);
    expect(avery).toBeGreaterThan(blake);
    expect(rows[blake]).toContain('Blake County 911');
    expect(rows[blake]).toContain('Two consoles, night shift');
    await expectAccessible(page, '/admin/dev with demo requests');
    await context.close();
  });
});
