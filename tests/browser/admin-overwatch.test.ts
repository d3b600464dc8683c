import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  newPage,
  signInWithForm,
  startAuthEnvironment,
  type AuthEnvironment,
} from './auth-support';
import { expectAccessible, expectAccessibleOnceShown } from '../support/browser';

let env: AuthEnvironment;

beforeAll(async () => {
  env = await startAuthEnvironment();
  // A volunteer of the Search and Rescue list once texted STOP: shown in the group, never texted.
  await env.database.db
    .insertInto('sms_opt_outs')
    .values({ phone_number: '+12025550171' })
    .execute();
});

afterAll(async () => {
  await env?.close();
});

const url = (path: string) => `${env.api.url}${path}`;

async function storedGroup(name: string) {
  const group = await env.database.db
    .selectFrom('overwatch_groups')
    .select(['id', 'name', 'language', 'archived_at'])
    .where('name', '=', name)
    .executeTakeFirst();
  if (!group) return undefined;
  const members = await env.database.db
    .selectFrom('overwatch_group_members')
    .select(['phone_number', 'label'])
    .where('group_id', '=', group.id)
    .orderBy('phone_number')
    .execute();
  const geofences = await env.database.db
    .selectFrom('overwatch_geofences')
    .select(['name', 'polygon'])
    .where('group_id', '=', group.id)
    .orderBy('position')
    .execute();
  return { ...group, members, geofences };
}

const bowTie = JSON.stringify({
  type: 'Polygon',
  coordinates: [
    [
      [-90.1, 29.9],
      [-90.0, 30.0],
      [-90.0, 29.9],
      [-90.1, 30.0],
      [-90.1, 29.9],
    ],
  ],
});

const square = JSON.stringify({
  type: 'Feature',
  properties: { name: 'Harbour' },
  geometry: {
    type: 'Polygon',
    coordinates: [
      [
        [-90.1, 29.9],
        [-90.0, 29.9],
        [-90.0, 30.0],
        [-90.1, 30.0],
        [-90.1, 29.9],
      ],
    ],
  },
});

describe('the Overwatch admin screens', { timeout: 240_000 }, () => {
  it('let a premiere team admin create, edit, archive and restore a group', async () => {
    const { page, context } = await newPage(env.browser, { height: 1000 });
    await signInWithForm(page, env.api.url, 'teamadmin@demo-county.test');
    await page.goto(url('/admin'));
    await page
      .getByRole('navigation', { name: 'Admin sections' })
      .getByRole('link', { name: 'OVERWATCH' })
      .click();
    await page.waitForURL(url('/admin/overwatch'));
    await page.getByRole('heading', { level: 1, name: 'Overwatch groups' }).waitFor();
    // The demo's own group.
    await page.getByRole('link', { name: 'Flood zone volunteers', exact: true }).waitFor();
    await expectAccessible(page, '/admin/overwatch');

    // A new group: a call list, a typed number, a language.
    await page.getByRole('link', { name: 'New group' }).click();
    await page.waitForURL(url('/admin/overwatch/new/edit'));
    await page.getByRole('heading', { level: 1, name: 'New Overwatch group' }).waitFor();
    await page.getByRole('textbox', { name: 'Name' }).fill('Night watch');
    await page.getByRole('radio', { name: 'Spanish' }).check();
    const numbers = page.getByRole('region', { name: 'Numbers' });
    await numbers.getByRole('combobox', { name: 'Call list' }).click();
    await page.getByRole('option', { name: /Search and Rescue volunteers/ }).click();
    await numbers.getByRole('button', { name: 'Add from call list' }).click();
    await page.getByText('3 numbers added from Search and Rescue volunteers').waitFor();
    const phone = numbers.getByRole('textbox', { name: 'Phone number' });
    await phone.fill('not a number');
    await phone.press('Enter');
    await numbers.getByText('Please use a valid Phone Number').waitFor();
    await phone.fill('202 555 0190');
    await numbers.getByRole('textbox', { name: 'Label' }).fill('Night boat');
    await phone.press('Enter');
    const numberTable = numbers.getByRole('table', { name: 'Numbers' });
    await numberTable.getByRole('cell', { name: '+12025550190', exact: true }).waitFor();
    expect(await numberTable.getByRole('row').count()).toBe(5);
    // Enter added the number; it did not submit the group.
    expect(page.url()).toBe(url('/admin/overwatch/new/edit'));

    // Movement: a preset fills both speeds.
    await page.getByRole('radio', { name: 'Boat' }).check();
    expect(await page.getByRole('textbox', { name: 'Assumed speed (m/s)' }).inputValue()).toBe(
      '10',
    );
    await page.getByText('Metres per second: about 36 km/h').waitFor();

    // Geofences: a bow-tie is refused in the form, with the API's words; a square is taken.
    const geofences = page.getByRole('region', { name: 'Geofences' });
    await geofences.getByRole('button', { name: 'Paste GeoJSON' }).click();
    const paste = geofences.getByRole('group', { name: 'Paste GeoJSON' });
    await paste.getByRole('textbox', { name: 'Geofence name' }).fill('Bow tie');
    await paste.getByRole('textbox', { name: 'GeoJSON polygon' }).fill(bowTie);
    await paste.getByRole('button', { name: 'Add geofence' }).click();
    await paste.getByText('The polygon crosses itself (edge 1 crosses edge 3).').waitFor();
    await expectAccessible(page, 'new group, self-intersecting geofence pasted');
    await paste.getByRole('textbox', { name: 'GeoJSON polygon' }).fill('{"type": "Point"');
    await paste.getByRole('button', { name: 'Add geofence' }).click();
    await paste.getByText('This is not GeoJSON: it is not valid JSON.').waitFor();
    await paste.getByRole('textbox', { name: 'Geofence name' }).fill('Harbour');
    await paste.getByRole('textbox', { name: 'GeoJSON polygon' }).fill(square);
    await paste.getByRole('button', { name: 'Add geofence' }).click();
    await paste.waitFor({ state: 'detached' });
    const fenceTable = geofences.getByRole('table', { name: 'Geofences' });
    await fenceTable.getByRole('row', { name: /Harbour 4/ }).waitFor();

    // A triangle drawn by clicking the map.
    await geofences.getByRole('button', { name: 'Draw on map' }).click();
    const draw = geofences.getByRole('group', { name: 'Draw on map' });
    await draw.getByText('Keyboard users').waitFor();
    await draw.getByRole('textbox', { name: 'Geofence name' }).fill('Slipway');
    const map = page.getByRole('region', { name: 'Geofence map' });
    await map.scrollIntoViewIfNeeded();
    const box = (await map.boundingBox())!;
    for (const [x, y] of [
      [0.3, 0.3],
      [0.7, 0.3],
      [0.6, 0.6],
      [0.5, 0.75],
    ] as const) {
      await page.mouse.click(box.x + box.width * x, box.y + box.height * y);
    }
    await page.screenshot({ path: '/tmp/locus-overwatch-drawing.png', fullPage: true });
    await draw.getByText('4 corners').waitFor();
    await draw.getByRole('button', { name: 'Undo last point' }).click();
    await draw.getByText('3 corners').waitFor();
    await expectAccessible(page, 'new group, drawing a geofence');
    await draw.getByRole('button', { name: 'Finish' }).click();
    await draw.waitFor({ state: 'detached' });
    await fenceTable.getByRole('row', { name: /Slipway 3/ }).waitFor();
    await expectAccessible(page, 'new group, filled in');

    await page.getByRole('button', { name: 'Create group' }).click();
    await page.waitForURL(url('/admin/overwatch'));
    await page.getByRole('alert').filter({ hasText: 'Night watch saved' }).waitFor();
    const stored = await storedGroup('Night watch');
    expect(stored?.language).toBe('es');
    expect(stored?.members).toEqual([
      { phone_number: '+12025550170', label: 'SAR team lead' },
      { phone_number: '+12025550171', label: 'SAR volunteer 1' },
      { phone_number: '+12025550172', label: 'SAR volunteer 2' },
      { phone_number: '+12025550190', label: 'Night boat' },
    ]);
    expect(stored?.geofences.map((fence) => fence.name)).toEqual(['Harbour', 'Slipway']);
    expect(
      (stored?.geofences[1]?.polygon as { coordinates: unknown[][] }).coordinates[0],
    ).toHaveLength(4);

    // The list: its numbers, the opted-out one, its geofences, and a link to Overwatch.
    const row = page
      .getByRole('row')
      .filter({ has: page.getByRole('link', { name: 'Night watch' }) });
    await row.getByRole('cell', { name: 'Demo County 911', exact: true }).waitFor();
    await row.getByText('1 opted out').waitFor();
    expect(await row.getByRole('cell').allTextContents()).toEqual(
      expect.arrayContaining(['4', '2']),
    );
    expect(
      await row.getByRole('link', { name: 'Open Overwatch with Night watch' }).getAttribute('href'),
    ).toBe(`/overwatch?group=${stored!.id}`);
    await expectAccessible(page, '/admin/overwatch, new group listed');

    // Edit: the opted-out number is marked; the name changes.
    await row.getByRole('link', { name: 'Edit Night watch' }).click();
    await page.waitForURL(url(`/admin/overwatch/${stored!.id}/edit`));
    await page.getByRole('heading', { level: 1, name: 'Overwatch group: Night watch' }).waitFor();
    await page
      .getByRole('row', { name: /\+12025550171/ })
      .getByText('Opted out (STOP): never texted')
      .waitFor();
    expect(await page.getByRole('radio', { name: 'Spanish' }).isChecked()).toBe(true);
    expect(await page.getByRole('radio', { name: 'Boat' }).isChecked()).toBe(true);
    await page
      .getByRole('table', { name: 'Geofences' })
      .getByRole('row', { name: /Slipway/ })
      .waitFor();
    await expectAccessible(page, 'edit group');
    await page.getByRole('textbox', { name: 'Name' }).fill('');
    await page.getByRole('button', { name: 'Save group' }).click();
    await page.getByRole('alert').filter({ hasText: 'The group was not saved' }).waitFor();
    await page.getByRole('textbox', { name: 'Name' }).fill('Night watch east');
    await page.getByRole('button', { name: 'Save group' }).click();
    await page.waitForURL(url('/admin/overwatch'));
    const renamed = page
      .getByRole('row')
      .filter({ has: page.getByRole('link', { name: 'Night watch east' }) });
    await renamed.waitFor();
    expect((await storedGroup('Night watch east'))?.id).toBe(stored!.id);

    // Archive (after a confirmation), then restore.
    await renamed.getByRole('button', { name: 'Archive Night watch east' }).click();
    const dialog = page.getByRole('dialog', { name: 'Archive group' });
    await expectAccessibleOnceShown(page, dialog, 'archive group dialog');
    await dialog.getByRole('button', { name: 'Archive group' }).click();
    await dialog.waitFor({ state: 'detached' });
    await renamed.waitFor({ state: 'detached' });
    expect((await storedGroup('Night watch east'))?.archived_at).not.toBeNull();
    await page.getByRole('switch', { name: 'Show archived' }).check();
    const archived = page
      .getByRole('row')
      .filter({ has: page.getByRole('link', { name: 'Night watch east' }) });
    await archived.getByText('Archived', { exact: true }).waitFor();
    await expectAccessible(page, '/admin/overwatch, archived shown');
    await archived.getByRole('button', { name: 'Restore Night watch east' }).click();
    await page.getByRole('alert').filter({ hasText: 'Night watch east restored' }).waitFor();
    await archived.getByRole('button', { name: 'Archive Night watch east' }).waitFor();
    expect((await storedGroup('Night watch east'))?.archived_at).toBeNull();
    await context.close();
  });

  it('send the admin of a basic-level team away with an explanation', async () => {
    const { page, context } = await newPage(env.browser);
    await signInWithForm(page, env.api.url, 'teamadmin@neighbour-county.test');
    await page.goto(url('/admin/overwatch'));
    await page.waitForURL(url('/admin'));
    await page
      .getByText(
        'Overwatch needs your team to have the premiere level. Ask your agency administrator or Locus sales.',
      )
      .waitFor();
    await expectAccessible(page, '/admin after the Overwatch redirect');
    await context.close();
  });
});
