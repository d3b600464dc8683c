import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  newPage,
  signInWithForm,
  startAuthEnvironment,
  type AuthEnvironment,
} from './auth-support';
import { expectAccessible, expectAccessibleOnceShown, settled } from '../support/browser';

let env: AuthEnvironment;

beforeAll(async () => {
  env = await startAuthEnvironment();
});

afterAll(async () => {
  await env?.close();
});

async function storedNumbers(listName: string) {
  const rows = await env.database.db
    .selectFrom('call_lists as l')
    .leftJoin('call_list_numbers as n', 'n.call_list_id', 'l.id')
    .select(['n.phone_number'])
    .where('l.name', '=', listName)
    .orderBy('n.phone_number')
    .execute();
  return rows.map((row) => row.phone_number);
}

describe('the Teams screen', { timeout: 180_000 }, () => {
  it('lets a team admin create, rename, edit and delete a call list', async () => {
    const { page, context } = await newPage(env.browser);
    await signInWithForm(page, env.api.url, 'teamadmin@demo-county.test');
    await page.goto(`${env.api.url}/admin/teams`);
    await page.getByRole('heading', { level: 1, name: 'Teams' }).waitFor();
    const team = page.getByRole('region', { name: 'Demo County 911' });
    const table = team.getByRole('table', { name: 'Call lists of Demo County 911' });
    await table.getByRole('cell', { name: 'Search and Rescue volunteers', exact: true }).waitFor();
    await table.getByRole('cell', { name: 'Coast patrol boats', exact: true }).waitFor();
    await expectAccessible(page, '/admin/teams');

    // Create: one line is not a phone number; it is flagged and not sent.
    await team.getByRole('button', { name: 'New call list' }).click();
    const create = page.getByRole('dialog', { name: 'New call list' });
    await create.getByLabel('List name').fill('Night shift');
    await create
      .getByLabel('Phone numbers')
      .fill('202 555 0180\n+1 202 555 0181\nnot-a-number\n+12025550182');
    await create.getByText('not-a-number: not a valid phone number').waitFor();
    await create.getByText('1 invalid line will not be added').waitFor();
    await create.getByRole('status').getByText('3 numbers will be added.').waitFor();
    await settled(page);
    await expectAccessible(page, 'new call list, one invalid line');
    await create.getByRole('button', { name: 'Create list' }).click();
    await create.waitFor({ state: 'detached' });
    // The notice stays up while the pointer rests on it, as it does for someone reading it.
    const created = page.getByRole('alert').filter({ hasText: 'Call list Night shift created' });
    await created.hover();
    await settled(page);
    await expectAccessible(page, 'call list created, with its notice');
    await created.getByRole('button', { name: 'Close notice' }).click();
    await created.waitFor({ state: 'detached' });
    const row = table
      .getByRole('row')
      .filter({ has: page.getByRole('cell', { name: 'Night shift', exact: true }) });
    await expect.poll(() => row.getByRole('cell').nth(1).textContent()).toBe('3');
    expect(await storedNumbers('Night shift')).toEqual([
      '+12025550180',
      '+12025550181',
      '+12025550182',
    ]);

    // A name the team already uses is refused.
    await team.getByRole('button', { name: 'Rename Night shift' }).click();
    const rename = page.getByRole('dialog', { name: 'Rename call list' });
    await rename.getByLabel('List name').fill('coast patrol boats');
    await rename.getByRole('button', { name: 'Save name' }).click();
    await expectAccessibleOnceShown(
      page,
      rename.getByRole('alert').getByText(/already has a call list with this name/),
      'rename call list, name taken',
    );
    await rename.getByLabel('List name').fill('Overnight shift');
    await rename.getByRole('button', { name: 'Save name' }).click();
    await rename.waitFor({ state: 'detached' });
    const renamed = page.getByRole('alert').filter({ hasText: 'Renamed to Overnight shift' });
    await renamed.getByRole('button', { name: 'Close notice' }).click();
    await renamed.waitFor({ state: 'detached' });
    await table.getByRole('cell', { name: 'Overnight shift', exact: true }).waitFor();
    expect(await table.getByRole('cell', { name: 'Night shift', exact: true }).count()).toBe(0);

    // Open it: remove a number, refuse an invalid one, add one, attach a team user.
    await team.getByRole('button', { name: 'Open Overnight shift' }).click();
    const details = page.getByRole('dialog', { name: 'Overnight shift' });
    const numbers = details.getByRole('table', { name: 'Numbers on Overnight shift' });
    await expectAccessibleOnceShown(
      page,
      numbers.getByRole('cell', { name: '+12025550181', exact: true }),
      'call list open',
    );
    await details.getByRole('button', { name: 'Remove +12025550181' }).click();
    await numbers
      .getByRole('cell', { name: '+12025550181', exact: true })
      .waitFor({ state: 'detached' });
    expect(await storedNumbers('Overnight shift')).toEqual(['+12025550180', '+12025550182']);

    await details.getByLabel('Phone number').fill('12345');
    await details.getByRole('button', { name: 'Add number' }).click();
    await details.getByText('Please use a valid Phone Number').waitFor();
    await expectAccessible(page, 'call list, invalid number');
    await details.getByLabel('Phone number').fill('202 555 0183');
    await details.getByLabel('Label').fill('Night supervisor');
    await details.getByRole('button', { name: 'Add number' }).click();
    await numbers.getByRole('cell', { name: 'Night supervisor', exact: true }).waitFor();
    expect(await storedNumbers('Overnight shift')).toEqual([
      '+12025550180',
      '+12025550182',
      '+12025550183',
    ]);

    await details.getByRole('combobox', { name: 'Team user' }).click();
    await expectAccessibleOnceShown(
      page,
      page.getByRole('option', { name: /Dana Dispatcher/ }),
      'call list, team users listed',
    );
    await page.getByRole('option', { name: /Dana Dispatcher/ }).click();
    await details.getByRole('button', { name: 'Attach user' }).click();
    const attached = details.getByRole('list', { name: 'Attached users' });
    await attached.getByText('Dana Dispatcher').waitFor();
    await expectAccessible(page, 'call list, a user attached');
    await details.getByRole('button', { name: 'Detach Dana Dispatcher' }).click();
    await attached.waitFor({ state: 'detached' });
    await details.getByRole('button', { name: 'Done' }).click();
    await details.waitFor({ state: 'detached' });

    // Delete, after confirming.
    await team.getByRole('button', { name: 'Delete Overnight shift' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete call list' });
    await expectAccessibleOnceShown(
      page,
      confirm.getByText(/Delete Overnight shift and its 3 numbers\?/),
      'delete call list',
    );
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
    await table.getByRole('cell', { name: 'Overnight shift', exact: true }).waitFor();
    await team.getByRole('button', { name: 'Delete Overnight shift' }).click();
    await page
      .getByRole('dialog', { name: 'Delete call list' })
      .getByRole('button', { name: 'Delete list' })
      .click();
    await table
      .getByRole('cell', { name: 'Overnight shift', exact: true })
      .waitFor({ state: 'detached' });
    expect(await storedNumbers('Overnight shift')).toEqual([]);
    await table.getByRole('cell', { name: 'Search and Rescue volunteers', exact: true }).waitFor();
    await context.close();
  });
});
