import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  linkIn,
  newPage,
  signInWithForm,
  startAuthEnvironment,
  storedToken,
  waitForEmail,
  type AuthEnvironment,
} from './auth-support';
import { expectAccessible, settled } from '../support/browser';

let env: AuthEnvironment;

beforeAll(async () => {
  env = await startAuthEnvironment();
});

afterAll(async () => {
  await env?.close();
});

const url = (path: string) => `${env.api.url}${path}`;

async function roleOn(email: string, teamName: string) {
  const row = await env.database.db
    .selectFrom('team_members as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .innerJoin('teams as t', 't.id', 'm.team_id')
    .select('m.role')
    .where('u.email', '=', email)
    .where('t.team_name', '=', teamName)
    .executeTakeFirst();
  return row?.role ?? null;
}

async function openUsers(page: Page) {
  await page.goto(url('/admin/users'));
  await page.getByRole('heading', { level: 1, name: 'Users' }).waitFor();
  await page.getByRole('table', { name: 'Users' }).waitFor();
}

/** Narrows the table with the search box and opens the one user's drawer. */
async function openDrawer(page: Page, search: string, name: string) {
  await page.getByRole('searchbox', { name: 'Search users' }).fill(search);
  const details = page.getByRole('button', { name: `Details of ${name}` });
  await details.waitFor();
  await page.getByText(/^1 user$/).waitFor();
  await details.click();
  const drawer = page.getByRole('dialog', { name });
  await drawer.getByText('Email confirmed').waitFor();
  return drawer;
}

describe('the Users screen', { timeout: 180_000 }, () => {
  it('lets a team admin invite two people at once; one sets a password and reaches the dashboard', async () => {
    const { page, context } = await newPage(env.browser);
    await signInWithForm(page, env.api.url, 'teamadmin@demo-county.test');
    await openUsers(page);
    const table = page.getByRole('table', { name: 'Users' });
    await table.getByRole('cell', { name: 'Dana Dispatcher', exact: true }).waitFor();
    // Role badges, and no user of another team.
    await table.getByText('Team admin').first().waitFor();
    await table.getByText('Dispatcher', { exact: true }).first().waitFor();
    expect(await table.getByText('neighbour-county.test').count()).toBe(0);
    await expectAccessible(page, 'users table');

    // Sorting by e-mail, descending: the header says so.
    const emailHeader = table.getByRole('columnheader', { name: 'Email', exact: true });
    await emailHeader.getByRole('button').click();
    await expect.poll(() => emailHeader.getAttribute('aria-sort')).toBe('ascending');
    await emailHeader.getByRole('button').click();
    await expect.poll(() => emailHeader.getAttribute('aria-sort')).toBe('descending');

    await page.getByRole('button', { name: 'Invite users' }).click();
    const invite = page.getByRole('dialog', { name: 'Invite users' });
    await invite.getByRole('textbox', { name: 'First name' }).fill('Quinn');
    await invite.getByRole('textbox', { name: 'Last name' }).fill('Newhire');
    await invite.getByRole('textbox', { name: 'Email' }).fill('quinn.newhire@demo-county');
    await invite.getByRole('button', { name: 'Add another person' }).click();
    const second = invite.getByRole('group', { name: 'Person 2' });
    await second.getByRole('textbox', { name: 'First name' }).fill('Rowan');
    await second.getByRole('textbox', { name: 'Last name' }).fill('Newhire');
    await second.getByRole('textbox', { name: 'Email' }).fill('rowan.newhire@demo-county.test');
    await second.getByRole('combobox', { name: 'Role' }).click();
    await page.getByRole('option', { name: 'Team admin' }).click();
    await invite.getByRole('button', { name: 'Send 2 invitations' }).click();
    await invite.getByText('Enter a valid email').waitFor();
    await expectAccessible(page, 'invite modal with an error');
    const first = invite.getByRole('group', { name: 'Person 1' });
    await first.getByRole('textbox', { name: 'Email' }).fill('quinn.newhire@demo-county.test');
    await invite.getByRole('button', { name: 'Send 2 invitations' }).click();
    // Every invitee costs a password hash (the answer must not tell new from existing accounts):
    // slower than one page step on a busy machine.
    await invite.waitFor({ state: 'detached', timeout: 30_000 });
    await page.getByText('Invitations sent to 2 people.').waitFor();
    expect(await roleOn('quinn.newhire@demo-county.test', 'Demo County 911')).toBe('member');
    expect(await roleOn('rowan.newhire@demo-county.test', 'Demo County 911')).toBe('admin');
    await context.close();

    // Quinn follows the link from the e-mail, chooses a password and signs in.
    const email = await waitForEmail(
      env.api.url,
      'quinn.newhire@demo-county.test',
      /forgot-password\/reset/,
    );
    const link = linkIn(email, '/auth/forgot-password/reset');
    const quinn = await newPage(env.browser);
    await quinn.page.goto(url(`${link.pathname}${link.search}`));
    await quinn.page.getByLabel(/^New password/).fill('quinn-chose-this-one');
    await quinn.page.getByLabel('Confirm new password').fill('quinn-chose-this-one');
    await quinn.page.getByRole('button', { name: 'Change password' }).click();
    await quinn.page.getByRole('heading', { name: 'Password changed' }).waitFor();
    await signInWithForm(
      quinn.page,
      env.api.url,
      'quinn.newhire@demo-county.test',
      'quinn-chose-this-one',
    );
    expect(new URL(quinn.page.url()).pathname).toBe('/dashboard');
    const confirmed = await env.database.db
      .selectFrom('users')
      .select('email_confirmed_at')
      .where('email', '=', 'quinn.newhire@demo-county.test')
      .executeTakeFirstOrThrow();
    expect(confirmed.email_confirmed_at).not.toBeNull();
    await quinn.context.close();
  });

  it('lets a team admin change a role and remove a user, whose open dashboard is signed out', async () => {
    // Devon's console is open in another browser.
    const devon = await newPage(env.browser);
    await signInWithForm(devon.page, env.api.url, 'dispatcher2@demo-county.test');

    const { page, context } = await newPage(env.browser);
    await signInWithForm(page, env.api.url, 'teamadmin@demo-county.test');
    await openUsers(page);

    // Change a role: Dana becomes a team admin.
    let drawer = await openDrawer(page, 'DANA', 'Dana Dispatcher');
    await drawer.getByText('Demo County 911', { exact: true }).waitFor();
    await expectAccessible(page, 'drawer open');
    await drawer.getByRole('combobox', { name: 'Role on Demo County 911' }).click();
    await page.getByRole('option', { name: 'Team admin' }).click();
    await page.getByText('Dana Dispatcher is now Team admin of Demo County 911.').waitFor();
    expect(await roleOn('dispatcher@demo-county.test', 'Demo County 911')).toBe('admin');
    await page.getByRole('button', { name: 'Close details' }).click();
    await drawer.waitFor({ state: 'detached' });

    // Remove Devon, after a confirmation.
    drawer = await openDrawer(page, 'devon', 'Devon Dispatcher');
    await drawer
      .getByRole('button', { name: 'Remove Devon Dispatcher from Demo County 911' })
      .click();
    const confirm = page.getByRole('dialog', {
      name: 'Remove Devon Dispatcher from Demo County 911?',
    });
    await confirm.getByText('signed out of every device').waitFor();
    await settled(page);
    await expectAccessible(page, 'remove confirmation');
    await confirm.getByRole('button', { name: 'Remove from team' }).click();
    await page.getByText('Devon Dispatcher was removed from Demo County 911.').waitFor();
    expect(await roleOn('dispatcher2@demo-county.test', 'Demo County 911')).toBeNull();
    await page.getByText('No user matches your search.').waitFor();

    // Devon's console: the session ended on the server. Nobody touches his page; it re-reads
    // its user every SESSION_REFRESH_MS (15 s) and signs itself out, to the site.
    await devon.page.waitForURL(
      (address) => address.pathname === '/' || address.pathname === '/auth/sign-in',
      { timeout: 40_000 },
    );
    expect(await storedToken(devon.page)).toBeNull();
    await devon.context.close();
    await context.close();
  });

  it('shows the last-admin refusal in an alert, and changes nothing', async () => {
    // A team whose only team admin is Nico (a dispatcher of Neighbouring County).
    const { db } = env.database;
    const team = await db
      .insertInto('teams')
      .values({ team_name: 'Solo Ops' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const nico = await db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'dispatcher@neighbour-county.test')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('team_members')
      .values({ team_id: team.id, user_id: nico.id, role: 'admin' })
      .execute();

    const { page, context } = await newPage(env.browser);
    await signInWithForm(page, env.api.url, 'owner@locus.test');
    await openUsers(page);
    const drawer = await openDrawer(page, 'dispatcher@neighbour', 'Nico Neighbour');
    await drawer.getByRole('combobox', { name: 'Role on Solo Ops' }).click();
    await page.getByRole('option', { name: 'Dispatcher' }).click();
    const refusal = drawer.getByRole('alert').filter({ hasText: 'last team admin' });
    await refusal.waitFor();
    await expectAccessible(page, 'drawer with the last-admin refusal');
    expect(await roleOn('dispatcher@neighbour-county.test', 'Solo Ops')).toBe('admin');
    await expect
      .poll(() => drawer.getByRole('combobox', { name: 'Role on Solo Ops' }).inputValue())
      .toBe('Team admin');
    await context.close();
  });

  it("lists a team's members with their roles on the team's edit page", async () => {
    const team = await env.database.db
      .selectFrom('teams')
      .select('id')
      .where('team_name', '=', 'Demo County 911')
      .executeTakeFirstOrThrow();
    const { page, context } = await newPage(env.browser);
    await signInWithForm(page, env.api.url, 'teamadmin@demo-county.test');
    await page.goto(url(`/admin/teams/${team.id}/edit`));
    const members = page.getByRole('region', { name: 'Members' });
    const table = members.getByRole('table', { name: 'Members of Demo County 911' });
    const terry = table.getByRole('row').filter({ hasText: 'teamadmin@demo-county.test' });
    await terry.waitFor();
    expect(
      await terry.getByRole('combobox', { name: 'Role on Demo County 911' }).inputValue(),
    ).toBe('Team admin');
    await terry.getByRole('button', { name: 'Remove Terry Admin from Demo County 911' }).waitFor();
    await expectAccessible(page, 'team members panel');
    await context.close();
  });

  it('works at 320 px', async () => {
    const { page, context } = await newPage(env.browser, { width: 320, height: 640 });
    await signInWithForm(page, env.api.url, 'teamadmin@demo-county.test');
    await openUsers(page);
    await expectAccessible(page, 'users table at 320 px');
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    await context.close();
  });
});
