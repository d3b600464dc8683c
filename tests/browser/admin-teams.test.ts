import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  newPage,
  signInWithForm,
  startAuthEnvironment,
  type AuthEnvironment,
} from './auth-support';
import { expectAccessible, expectAccessibleOnceShown, tabTo } from '../support/browser';

let env: AuthEnvironment;

beforeAll(async () => {
  env = await startAuthEnvironment();
  // The first-visit tour is another screen's subject; here it would cover the user menu.
  await env.database.db
    .updateTable('users')
    .set({ has_seen_walkthrough: true })
    .where('email', '=', 'dispatcher@demo-county.test')
    .execute();
});

afterAll(async () => {
  await env?.close();
});

const url = (path: string) => `${env.api.url}${path}`;

async function team(name: string) {
  return env.database.db
    .selectFrom('teams')
    .select(['id', 'permission_levels', 'is_active', 'custom_content', 'time_zone', 'record_media'])
    .where('team_name', '=', name)
    .executeTakeFirst();
}

describe('the team admin screens', { timeout: 240_000 }, () => {
  it('let the platform owner create a team and set its level', async () => {
    const { page, context } = await newPage(env.browser);
    await signInWithForm(page, env.api.url, 'owner@locus.test');
    await page.goto(url('/admin/teams'));
    const all = page.getByRole('region', { name: 'All teams' });
    await all.getByRole('link', { name: 'Neighbouring County', exact: true }).waitFor();
    await all.getByRole('link', { name: 'Demo County 911', exact: true }).waitFor();
    await expectAccessible(page, 'teams, platform owner');

    await all.getByRole('button', { name: 'Create team' }).click();
    const create = page.getByRole('dialog', { name: 'Create team' });
    await create.getByRole('button', { name: 'Create team' }).click();
    await create.getByText('Required').waitFor();
    await expectAccessibleOnceShown(page, create, 'create team, name missing');
    await create.getByLabel('Team name').fill('Harbour Rescue');
    await create.getByRole('radio', { name: 'Premiere' }).check();
    await create.getByRole('button', { name: 'Create team' }).click();
    await page.waitForURL(/\/admin\/teams\/[0-9a-f-]{36}\/edit$/);
    await page.getByRole('heading', { level: 1, name: 'Team: Harbour Rescue' }).waitFor();
    expect((await team('Harbour Rescue'))?.permission_levels).toEqual(['premiere']);

    const settings = page.getByRole('region', { name: 'Settings' });
    await expect
      .poll(() => settings.getByRole('radio', { name: 'Premiere' }).isChecked())
      .toBe(true);
    await expectAccessible(page, 'new team edit page, platform owner');
    await settings.getByRole('radio', { name: 'Enterprise' }).check();
    // A new team starts in New York (issue 13); this one is on the west coast.
    const zone = settings.getByRole('combobox', { name: 'Time zone' });
    expect(await zone.inputValue()).toBe('America/New York');
    await zone.fill('angeles');
    await page.getByRole('option', { name: 'America/Los Angeles', exact: true }).click();
    await settings.getByRole('button', { name: 'Save settings' }).click();
    await page.getByRole('alert').filter({ hasText: 'Team settings saved' }).waitFor();
    await expect
      .poll(async () => (await team('Harbour Rescue'))?.permission_levels)
      .toEqual(['premiere', 'enterprise']);
    expect((await team('Harbour Rescue'))?.time_zone).toBe('America/Los_Angeles');
    await expectAccessible(page, 'team settings saved');

    // The new team is in the table, with its levels as badges.
    await page.goto(url('/admin/teams'));
    const row = page
      .getByRole('region', { name: 'All teams' })
      .getByRole('row')
      .filter({ has: page.getByRole('link', { name: 'Harbour Rescue', exact: true }) });
    await row.getByText('Enterprise').waitFor();
    await row.getByText('Active').waitFor();
    await context.close();
  });

  it('let a team admin add an agency and custom links, which a dispatcher then sees', async () => {
    const { page, context } = await newPage(env.browser);
    await signInWithForm(page, env.api.url, 'teamadmin@demo-county.test');
    await page.goto(url('/admin/teams'));
    const own = page.getByRole('region', { name: 'Your teams' });
    await own.getByRole('link', { name: 'Demo County 911', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Team: Demo County 911' }).waitFor();
    const settings = page.getByRole('region', { name: 'Settings' });
    await settings.getByText('Only Locus can rename your team').waitFor();
    // A team admin reads the level and cannot change it.
    expect(await settings.getByRole('radio').count()).toBe(0);
    await page.getByRole('cell', { name: 'Coast patrol boats', exact: true }).waitFor();
    await expectAccessible(page, 'team edit page, team admin');

    // The time zone is the team's own: its admin sets it (issue 13), typing to find the city.
    const zone = settings.getByRole('combobox', { name: 'Time zone' });
    expect(await zone.inputValue()).toBe('America/Chicago');
    await zone.fill('denv');
    const option = page.getByRole('option', { name: 'America/Denver', exact: true });
    await option.waitFor();
    await expectAccessibleOnceShown(page, page.getByRole('listbox'), 'time zone list, team admin');
    await option.click();
    await settings.getByRole('button', { name: 'Save time zone' }).click();
    await page.getByRole('alert').filter({ hasText: 'Time zone saved' }).waitFor();
    await expect
      .poll(async () => (await team('Demo County 911'))?.time_zone)
      .toBe('America/Denver');
    expect(await zone.inputValue()).toBe('America/Denver');
    await expectAccessible(page, 'time zone saved, team admin');

    // Agencies.
    const agencies = page.getByRole('region', { name: 'Agencies' });
    await agencies.getByText('No agencies yet.').waitFor();
    await agencies.getByRole('textbox', { name: 'Find an agency' }).fill('sandbox');
    await agencies.getByRole('button', { name: 'Search' }).click();
    await agencies
      .getByRole('button', { name: 'Add Sandbox City Public Safety Communications' })
      .click();
    await agencies
      .getByRole('table', { name: 'Agencies of Demo County 911' })
      .getByRole('cell', { name: 'Sandbox City Public Safety Communications', exact: true })
      .waitFor();
    await expectAccessible(page, 'agency added');

    // Custom links: an http link is refused beside its field, nothing is saved.
    const links = page.getByRole('region', { name: 'Custom links' });
    await links.getByRole('button', { name: 'Add header link' }).click();
    const first = links.getByRole('group', { name: 'Header link 1' });
    await first.getByRole('textbox', { name: 'Name', exact: true }).fill('County CAD');
    await first
      .getByRole('textbox', { name: 'Link', exact: true })
      .fill('http://cad.demo-county.test/');
    await links.getByRole('button', { name: 'Save links' }).click();
    await first.getByText('Links must start with https://').waitFor();
    await expectAccessible(page, 'custom link refused');
    const stored = (await team('Demo County 911'))?.custom_content as {
      links: { header: unknown[] };
    };
    expect(stored.links.header).toEqual([]);

    await first
      .getByRole('textbox', { name: 'Link', exact: true })
      .fill('https://cad.demo-county.test/');
    await links.getByRole('button', { name: 'Add dropdown link' }).click();
    const dropdown = links.getByRole('group', { name: 'Dropdown link 1' });
    await dropdown.getByRole('textbox', { name: 'Name', exact: true }).fill('Shift roster');
    await dropdown
      .getByRole('textbox', { name: 'Link', exact: true })
      .fill('https://roster.demo-county.test/');
    await links.getByRole('button', { name: 'Save links' }).click();
    await page.getByRole('alert').filter({ hasText: 'Custom links saved' }).waitFor();
    await expectAccessible(page, 'custom links saved');

    // The API page, for a team admin of an enterprise team: its empty state.
    await page.goto(url('/admin/admin-api'));
    await page.getByRole('heading', { level: 1, name: 'API' }).waitFor();
    await page
      .getByRole('region', { name: 'Demo County 911' })
      .getByText('No API keys yet')
      .waitFor();
    await page.getByRole('link', { name: 'API documentation' }).waitFor();
    await expectAccessible(page, 'API page, enterprise team admin');
    await context.close();

    // A dispatcher of the team signs in: both links are in the user menu, in a new tab.
    const dispatcher = await newPage(env.browser);
    await signInWithForm(dispatcher.page, env.api.url, 'dispatcher@demo-county.test');
    await dispatcher.page.getByRole('button', { name: /user menu/i }).click();
    const menu = dispatcher.page.getByRole('menu');
    for (const [name, href] of [
      ['County CAD', 'https://cad.demo-county.test/'],
      ['Shift roster', 'https://roster.demo-county.test/'],
    ] as const) {
      const item = menu.getByRole('menuitem', { name });
      await item.waitFor();
      expect(await item.getAttribute('href')).toBe(href);
      expect(await item.getAttribute('target')).toBe('_blank');
      expect(await item.getAttribute('rel')).toContain('noopener');
    }
    await expectAccessible(dispatcher.page, 'dispatcher user menu with team links');
    await dispatcher.context.close();
  });

  it('let a team admin switch video recording on and off with the keyboard alone', async () => {
    const { page, context } = await newPage(env.browser);
    await signInWithForm(page, env.api.url, 'teamadmin@neighbour-county.test');
    const own = await team('Neighbouring County');
    expect(own?.record_media).toBe(false);
    await page.goto(url(`/admin/teams/${own!.id}/edit`));
    await page.getByRole('heading', { level: 1, name: 'Team: Neighbouring County' }).waitFor();
    const recording = page.getByRole('switch', { name: 'Record video as evidence' });
    await tabTo(page, recording);
    await page.keyboard.press('Space');
    await page.getByRole('alert').filter({ hasText: 'Video recording setting saved' }).waitFor();
    await expect.poll(async () => (await team('Neighbouring County'))?.record_media).toBe(true);
    expect(await recording.isChecked()).toBe(true);
    await expectAccessible(page, 'video recording switched on, team admin');
    // Still focused once saved: Space again turns it off.
    await expect.poll(() => recording.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press('Space');
    await expect.poll(async () => (await team('Neighbouring County'))?.record_media).toBe(false);
    await expect.poll(() => recording.isChecked()).toBe(false);
    await context.close();
  });

  it('refuse the API page to a team admin without the enterprise level', async () => {
    const { page, context } = await newPage(env.browser);
    await signInWithForm(page, env.api.url, 'teamadmin@neighbour-county.test');
    await page.goto(url('/admin/admin-api'));
    // The route guard sends them to the admin home; the API section is not offered.
    await page.waitForURL(url('/admin'));
    const sections = page.getByRole('navigation', { name: 'Admin sections' });
    await sections.getByRole('link', { name: 'TEAMS' }).waitFor();
    expect(await sections.getByRole('link', { name: 'API', exact: true }).count()).toBe(0);
    await expectAccessible(page, 'API page refused, basic team admin');

    // Their team's edit page shows their own team only; Demo County's answers "not found".
    const demo = await team('Demo County 911');
    await page.goto(url(`/admin/teams/${demo!.id}/edit`));
    await page.getByRole('heading', { level: 1, name: 'Team not found' }).waitFor();
    await expectAccessible(page, 'another team’s edit page, basic team admin');
    await context.close();
  });
});
