import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiSignIn,
  newPage,
  signInWithForm,
  startAuthEnvironment,
  type AuthEnvironment,
} from './auth-support';
import { expectAccessible } from '../support/browser';

/**
 * Issue 11, "Must show": a team admin opens the audit screen, sees what their dispatchers did
 * (a sign-in, a locate request, a text), filters it, and downloads it as CSV.
 */
let env: AuthEnvironment;

beforeAll(async () => {
  env = await startAuthEnvironment();
});

afterAll(async () => {
  await env?.close();
});

/** A dispatcher of Demo County signs in and locates a number through the API. */
async function dispatcherLocates(phoneNumber: string): Promise<void> {
  const { token } = await apiSignIn(env.api.url, 'dispatcher@demo-county.test');
  const response = await fetch(`${env.api.url}/api/v1/location/start-stream`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ phoneNumber }),
  });
  expect(response.status).toBe(200);
}

describe('the audit screen', { timeout: 180_000 }, () => {
  it('shows a team admin their dispatchers’ actions, filtered, and downloads them as CSV', async () => {
    const number = '+12025550178';
    await dispatcherLocates(number);

    const { page, context } = await newPage(env.browser);
    await signInWithForm(page, env.api.url, 'teamadmin@demo-county.test');
    await page.goto(`${env.api.url}/admin`);
    await page
      .getByRole('navigation', { name: 'Admin sections' })
      .getByRole('link', { name: 'AUDIT' })
      .click();
    await page.waitForURL(`${env.api.url}/admin/audit`);
    await page.getByRole('heading', { level: 1, name: 'Audit trail' }).waitFor();
    const table = page.getByRole('table', { name: 'Who did what' });
    // The admin's own sign-in and the dispatcher's are on the team's trail.
    await table.getByRole('row').filter({ hasText: 'Terry Admin' }).first().waitFor();
    await table.getByRole('row').filter({ hasText: 'Dana Dispatcher' }).first().waitFor();
    await expectAccessible(page, 'the audit trail');

    await page.getByRole('combobox', { name: 'Action' }).click();
    await page.getByRole('option', { name: 'Locate requested', exact: true }).click();
    const locate = table.getByRole('row').filter({ hasText: number });
    await locate.getByText('Dana Dispatcher').waitFor();
    await expect.poll(() => table.getByRole('row').count(), { timeout: 10_000 }).toBe(2);
    await expectAccessible(page, 'the audit trail filtered by action');

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^locus-audit-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = readFileSync((await download.path())!, 'utf8');
    const lines = csv.split('\r\n');
    expect(lines[0]).toBe('At,Actor,Actor email,Action,Team,Subject,IP,Detail');
    expect(lines.slice(1, -1)).toHaveLength(1);
    expect(lines[1]).toContain(
      `,Dana Dispatcher,dispatcher@demo-county.test,locate.requested,Demo County 911,'${number},`,
    );
    await expectAccessible(page, 'after the download');

    // Sign-ins of one person, by the user filter.
    await page.getByRole('combobox', { name: 'Action' }).click();
    await page.getByRole('option', { name: 'Sign in', exact: true }).click();
    await page.getByRole('combobox', { name: 'User' }).click();
    await page.getByRole('option', { name: /Dana Dispatcher/ }).click();
    await table.getByRole('row').filter({ hasText: 'Sign in' }).first().waitFor();
    // The previous page stays up while the filtered one loads: wait until every row is hers.
    await expect
      .poll(
        async () =>
          (await table.getByRole('row').allTextContents())
            .slice(1)
            .every((row) => row.includes('Dana Dispatcher') && row.includes('Sign in')),
        { timeout: 10_000 },
      )
      .toBe(true);
    // The subject of a sign-in is the user, named.
    await table.getByRole('cell', { name: 'Dana Dispatcher' }).nth(1).waitFor();
    await expectAccessible(page, 'sign-ins of one dispatcher');

    // A date range that excludes today shows nothing.
    await page.getByLabel('To', { exact: true }).fill('2020-01-01');
    await page.getByText('Nothing matches these filters.').waitFor();
    await expectAccessible(page, 'nothing matches');
    await context.close();
  });

  it('works at 320 px, and shows the neighbouring team’s admin none of Demo County’s rows', async () => {
    await dispatcherLocates('+12025550179');
    const { page, context } = await newPage(env.browser, { width: 320, height: 720 });
    await signInWithForm(page, env.api.url, 'teamadmin@neighbour-county.test');
    await page.goto(`${env.api.url}/admin/audit`);
    const table = page.getByRole('table', { name: 'Who did what' });
    await table.getByRole('row').filter({ hasText: 'Nadia Admin' }).first().waitFor();
    await expectAccessible(page, 'the audit trail at 320 px');
    const text = (await table.allTextContents()).join(' ');
    expect(text).not.toContain('Dana Dispatcher');
    expect(text).not.toContain('+12025550179');
    await context.close();
  });

  it('lets a platform admin narrow the trail to one team', async () => {
    await dispatcherLocates('+12025550176');
    const { page, context } = await newPage(env.browser);
    await signInWithForm(page, env.api.url, 'owner@locus.test');
    await page.goto(`${env.api.url}/admin/audit`);
    const table = page.getByRole('table', { name: 'Who did what' });
    await table.getByRole('row').filter({ hasText: 'Olivia Owner' }).first().waitFor();
    await page.getByRole('combobox', { name: 'Team' }).click();
    await page.getByRole('option', { name: 'Demo County 911', exact: true }).click();
    await table.getByRole('row').filter({ hasText: '+12025550176' }).waitFor();
    await expect
      .poll(
        async () =>
          (await table.getByRole('row').allTextContents())
            .slice(1)
            .every((row) => row.includes('Demo County 911')),
        { timeout: 10_000 },
      )
      .toBe(true);
    await expectAccessible(page, 'the trail of one team, for a platform admin');
    await context.close();
  });
});
