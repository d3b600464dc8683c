import { hashPassword } from '@locus/db';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from '../support/browser';
import {
  DEMO_PASSWORD,
  newPage,
  signInWithForm,
  startAuthEnvironment,
  type AuthEnvironment,
} from './auth-support';

let env: AuthEnvironment;

beforeAll(async () => {
  // One text per dispatcher, so that the console meets the limit.
  env = await startAuthEnvironment({ SMS_RATE_LIMIT_PER_USER: '1' });
});
afterAll(async () => {
  await env?.close();
});

const askYourAdministrator =
  'Your account is not part of an active agency team yet. Ask your agency administrator to add you.';

/** A confirmed, registered account on a cleared domain (demo-county.test), on `teamId` if given. */
async function account(name: string, teamId?: string): Promise<string> {
  const email = `${name}-${crypto.randomUUID().slice(0, 8)}@demo-county.test`;
  const user = await env.database.db
    .insertInto('users')
    .values({
      first_name: 'Robin',
      last_name: name,
      email,
      company_name: 'Somewhere 911',
      email_confirmed_at: new Date(),
      registration_completed_at: new Date(),
      password_hash: await hashPassword(DEMO_PASSWORD),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (teamId)
    await env.database.db
      .insertInto('team_members')
      .values({ team_id: teamId, user_id: user.id, role: 'member' })
      .execute();
  return email;
}

async function newTeam(): Promise<string> {
  const team = await env.database.db
    .insertInto('teams')
    .values({ team_name: `Short-lived County ${crypto.randomUUID().slice(0, 8)}` })
    .returning('id')
    .executeTakeFirstOrThrow();
  return team.id;
}

describe('a dashboard that may not locate', { timeout: 90_000 }, () => {
  it('tells an account on no team to ask its administrator, and offers no Locate', async () => {
    const { page, context } = await newPage(env.browser);
    await signInWithForm(page, env.api.url, await account('Teamless'));
    const notice = page.getByRole('status').filter({ hasText: 'Locating is not available' });
    await notice.waitFor();
    expect(await notice.innerText()).toContain(askYourAdministrator);
    expect(await page.getByRole('button', { name: 'Locate' }).count()).toBe(0);
    expect(await page.getByLabel('Phone number').count()).toBe(0);
    expect(await page.getByRole('radio', { name: 'Locate Numbers' }).count()).toBe(0);
    await expectAccessible(page, 'dashboard of an account on no team');
    await context.close();
  });

  it('says the same when the team is deactivated after the page loaded', async () => {
    const teamId = await newTeam();
    const { page, context } = await newPage(env.browser);
    await signInWithForm(page, env.api.url, await account('Deactivated', teamId));
    await env.database.db
      .updateTable('teams')
      .set({ is_active: false })
      .where('id', '=', teamId)
      .execute();
    // Nobody touches the page: the console re-reads its user and teams (SESSION_REFRESH_MS,
    // 15 s) and says it by itself. (The API's own refusal of a stale page is an API test.)
    const notice = page.getByRole('status').filter({ hasText: 'Locating is not available' });
    await notice.waitFor({ timeout: 40_000 });
    expect(await notice.innerText()).toContain(askYourAdministrator);
    expect(await page.getByRole('button', { name: 'Locate' }).count()).toBe(0);
    await expectAccessible(page, 'dashboard refused with no-active-team');
    await context.close();
  });
});

describe('a text the API refuses', { timeout: 90_000 }, () => {
  it('says that a premium-rate number cannot receive texts, and texts nothing', async () => {
    const { page, context } = await newPage(env.browser);
    await signInWithForm(page, env.api.url, 'dispatcher@demo-county.test');
    // 0150–0199: the lookup simulator has no record, so the console offers a text.
    const premium = '+19005550163';
    await page.getByLabel('Phone number').fill(premium);
    await page.getByRole('button', { name: 'Locate' }).click();
    const prompt = page.getByRole('dialog', { name: 'Send SMS to the caller?' });
    await prompt.getByRole('button', { name: 'Send SMS' }).click();
    await prompt
      .getByText(`${premium} is a premium-rate number and cannot receive text messages`)
      .waitFor();
    await expectAccessible(page, 'SMS prompt after an untextable number');
    const texts = await env.database.db
      .selectFrom('sms_messages')
      .select('id')
      .where('phone_number', '=', premium)
      .execute();
    expect(texts).toEqual([]);
    await prompt.getByRole('button', { name: 'No thanks' }).click();
    await context.close();
  });
});

/** Locates a number the lookup simulator has no record of, and sends the offered text. */
async function locateAndText(page: Page, number: string) {
  await page.getByLabel('Phone number').fill(number);
  await page.getByRole('button', { name: 'Locate' }).click();
  const prompt = page.getByRole('dialog', { name: 'Send SMS to the caller?' });
  await prompt.getByRole('button', { name: 'Send SMS' }).click();
  return prompt;
}

describe('the SMS limit in the console', { timeout: 120_000 }, () => {
  it('says that the dispatcher has sent too many texts, and when to try again', async () => {
    const { page, context } = await newPage(env.browser);
    await signInWithForm(page, env.api.url, 'dispatcher2@demo-county.test');
    await locateAndText(page, '+12025550164');
    // The one text allowed went out: end that session.
    const waiting = page.getByRole('dialog', { name: 'Waiting for location…' });
    await waiting.getByRole('button', { name: 'Stop tracking' }).click();
    await page
      .getByRole('dialog', { name: 'Are you sure?' })
      .getByRole('button', { name: 'End Tracking' })
      .click();

    const prompt = await locateAndText(page, '+12025550165');
    await prompt
      .getByText(/You have sent too many text messages for now\. Try again in \d+ minutes\./)
      .waitFor();
    await expectAccessible(page, 'SMS prompt after the SMS limit');
    const texts = await env.database.db
      .selectFrom('sms_messages')
      .select('id')
      .where('phone_number', '=', '+12025550165')
      .execute();
    expect(texts).toEqual([]);
    await context.close();
  });
});
