import { openSession } from '@locus/api';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { purgeTeamHistory } from '../../services/worker/src/jobs/maintenance/retention-purge';
import {
  newPage,
  signInWithForm,
  startAuthEnvironment,
  type AuthEnvironment,
} from './auth-support';
import { expectAccessible, expectAccessibleOnceShown } from '../support/browser';

/** Issue 15: a team admin sets how long the team keeps its history, and reads the purge in the trail. */
let env: AuthEnvironment;

beforeAll(async () => {
  env = await startAuthEnvironment();
});

afterAll(async () => {
  await env?.close();
});

const url = (path: string) => `${env.api.url}${path}`;

async function demoTeamId(): Promise<string> {
  const row = await env.database.db
    .selectFrom('teams')
    .select('id')
    .where('team_name', '=', 'Demo County 911')
    .executeTakeFirstOrThrow();
  return row.id;
}

async function storedRetention(): Promise<number | null | undefined> {
  const row = await env.database.db
    .selectFrom('teams')
    .select('retention_days')
    .where('team_name', '=', 'Demo County 911')
    .executeTakeFirst();
  return row?.retention_days;
}

describe('the team’s retention on its edit page', { timeout: 180_000 }, () => {
  it('is set by the team admin, refused out of range, and still shown after a reload', async () => {
    const { page, context } = await newPage(env.browser);
    await signInWithForm(page, env.api.url, 'teamadmin@demo-county.test');
    await page.goto(url('/admin/teams'));
    await page
      .getByRole('region', { name: 'Your teams' })
      .getByRole('link', { name: 'Demo County 911', exact: true })
      .click();
    await page.getByRole('heading', { level: 1, name: 'Team: Demo County 911' }).waitFor();
    const settings = page.getByRole('region', { name: 'Settings' });
    const field = settings.getByRole('textbox', { name: 'Keep location history and chat for' });
    // Empty: the deployment's default, which the field's description names.
    expect(await field.inputValue()).toBe('');
    await settings.getByText('the deployment’s default (90 days unless configured)').waitFor();

    // Out of range: explained beside the field, nothing sent.
    await field.fill('5000');
    await settings.getByText('Must be between 1 and 3650 days').waitFor();
    await settings.getByRole('button', { name: 'Save retention' }).click();
    await expectAccessible(page, 'retention out of range, team admin');
    expect(await storedRetention()).toBeNull();

    // From the deployment's default (which the page cannot read) to 30 days: asked first,
    // since the next purge deletes what is older.
    await field.fill('30');
    await settings.getByRole('button', { name: 'Save retention' }).click();
    const confirm = page.getByRole('dialog', { name: 'Change how long history is kept?' });
    await confirm.getByText('ended more than 30 days ago lose their').waitFor();
    await expectAccessibleOnceShown(page, confirm, 'shorter retention, asked first');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
    expect(await storedRetention()).toBeNull();
    await settings.getByRole('button', { name: 'Save retention' }).click();
    await confirm.getByRole('button', { name: 'Keep 30 days' }).click();
    await page.getByRole('alert').filter({ hasText: 'Retention saved' }).waitFor();
    await confirm.waitFor({ state: 'detached' });
    await expect.poll(storedRetention).toBe(30);
    await expectAccessible(page, 'retention saved, team admin');

    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Team: Demo County 911' }).waitFor();
    const reloaded = page
      .getByRole('region', { name: 'Settings' })
      .getByRole('textbox', { name: 'Keep location history and chat for' });
    await expect.poll(() => reloaded.inputValue()).toBe('30');
    await context.close();
  });

  it('shows the purge that followed on the audit trail, by Locus, with what it deleted', async () => {
    // A session that ended 40 days ago, purged by the job's own code with the team's 30 days.
    const teamId = await demoTeamId();
    const session = await openSession(env.database.db, {
      teamId,
      callers: [{ phoneNumber: '+12025550179' }],
    });
    await env.database.db
      .insertInto('location_fixes')
      .values({
        session_id: session.sessionId,
        seq: 1,
        caller_id: session.callers[0]!.callerId,
        latitude: 1,
        longitude: 2,
        uncertainty_radius_m: 3,
        source: 'TEXT_MESSAGE',
        captured_at: new Date(),
        received_at: new Date(),
      })
      .execute();
    await env.database.db
      .updateTable('tracking_sessions')
      .set({ status: 'ended', ended_at: sql<Date>`now() - interval '40 days'` })
      .where('id', '=', session.sessionId)
      .execute();
    const purged = await purgeTeamHistory(env.database.db, {
      teamId,
      retentionDays: 30,
      cutoff: new Date(Date.now() - 30 * 24 * 3600 * 1000),
    });
    expect(purged.sessions).toBe(1);

    const { page, context } = await newPage(env.browser);
    await signInWithForm(page, env.api.url, 'teamadmin@demo-county.test');
    await page.goto(url('/admin/audit'));
    await page.getByRole('heading', { level: 1, name: 'Audit trail' }).waitFor();
    await page.getByRole('combobox', { name: 'Action' }).click();
    await page
      .getByRole('option', { name: 'Old history deleted (retention)', exact: true })
      .click();
    const row = page
      .getByRole('table', { name: 'Who did what' })
      .getByRole('row')
      .filter({ hasText: 'Old history deleted (retention)' });
    await row.getByText('Locus (scheduled)').waitFor();
    await row.getByText('1 session ended over 30 days ago').waitFor();
    await expectAccessible(page, 'retention purge on the audit trail');
    await context.close();
  });
});
