import { hashPassword } from '@locus/db';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEMO_PASSWORD,
  linkIn,
  newPage,
  signInWithForm,
  startAuthEnvironment,
  waitForEmail,
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

async function openCreateAccount(page: Page) {
  await page.goto(env.api.url);
  await page.getByRole('button', { name: 'Sign Up', exact: true }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Create Account' });
  await dialog.waitFor();
  return dialog;
}

type Dialog = Awaited<ReturnType<typeof openCreateAccount>>;

async function fillIdentity(dialog: Dialog, email: string) {
  await dialog.getByLabel('First name').fill('Riley');
  await dialog.getByLabel('Last name').fill('Responder');
  await dialog.getByLabel('Email').fill(email);
  await dialog.getByLabel('8 characters or more').fill('a-long-password');
}

/** Accepting the Terms dialog opened from the checkbox's label ticks the box (SPEC.md §4). */
async function acceptTerms(page: Page, dialog: Dialog, audit = false) {
  await dialog.getByRole('button', { name: 'Terms of Use and Service' }).click();
  const terms = page.getByRole('dialog', { name: /Terms of Use/ });
  if (audit) await expectAccessibleOnceShown(page, terms, 'Terms over Create Account');
  await terms.getByRole('button', { name: 'I accept' }).click();
  await terms.waitFor({ state: 'detached' });
  expect(await dialog.getByRole('checkbox', { name: /I agree/ }).isChecked()).toBe(true);
}

async function userRow(email: string) {
  return env.database.db
    .selectFrom('users')
    .select(['psap_id', 'company_name', 'phone_number', 'registration_completed_at'])
    .where('email', '=', email)
    .executeTakeFirstOrThrow();
}

describe('Create Account', { timeout: 120_000 }, () => {
  it('validates every field as SPEC.md §5 says, next to the field', async () => {
    const { page, context } = await newPage(env.browser);
    const dialog = await openCreateAccount(page);
    await dialog.getByRole('button', { name: 'Create Account' }).click();
    await dialog.getByText('Enter a valid email').waitFor();
    expect(await dialog.getByText('Required').count()).toBe(2);
    await dialog.getByText('Password must have 8 characters or more').waitFor();
    await dialog.getByText('Select your agency').waitFor();
    await dialog.getByText('You must accept the Terms of Use and Service').waitFor();
    await settled(page);
    await expectAccessible(page, 'Create Account, fields to fix');
    await page.screenshot({ path: '/tmp/locus-create-account-errors.png' });

    await dialog.getByLabel('8 characters or more').fill('short');
    await dialog.getByRole('button', { name: 'Create Account' }).click();
    await dialog.getByText('Password must have 8 characters or more').waitFor();
    await context.close();
  });

  it('clears its fields when closed', async () => {
    const { page, context } = await newPage(env.browser);
    let dialog = await openCreateAccount(page);
    await dialog.getByLabel('First name').fill('Someone');
    await dialog.getByLabel('Email').fill('someone@example.test');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Sign Up', exact: true }).first().click();
    dialog = page.getByRole('dialog', { name: 'Create Account' });
    expect(await dialog.getByLabel('First name').inputValue()).toBe('');
    expect(await dialog.getByLabel('Email').inputValue()).toBe('');
    await context.close();
  });

  it('searches agencies only while none is selected; clearing the text clears the selection', async () => {
    const { page, context } = await newPage(env.browser);
    const searches: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/api/v1/psap/search')) searches.push(request.postData() ?? '');
    });
    const dialog = await openCreateAccount(page);
    const agency = dialog.getByRole('textbox', { name: 'Agency', exact: true });
    await agency.fill('Sandbox');
    await page.getByRole('option', { name: /Sandbox City Public Safety Communications/ }).waitFor();
    await settled(page);
    await expectAccessible(page, 'Create Account, agencies found');
    await page.getByRole('option', { name: /Sandbox City Public Safety Communications/ }).click();
    expect(await agency.inputValue()).toContain('Sandbox City Public Safety Communications');
    const afterSelection = searches.length;
    expect(afterSelection).toBeGreaterThan(0);
    expect(searches.every((body) => JSON.parse(body).searchTerm.length > 0)).toBe(true);

    await dialog.getByRole('button', { name: 'Create Account' }).click();
    await dialog.getByText('You must accept the Terms of Use and Service').waitFor();
    expect(await dialog.getByText('Select your agency').count()).toBe(0);
    expect(searches.length).toBe(afterSelection);

    await agency.fill('');
    await dialog.getByRole('button', { name: 'Create Account' }).click();
    await dialog.getByText('Select your agency').waitFor();
    expect(searches.length).toBe(afterSelection);
    await context.close();
  });

  it('signs up a user of a listed agency: completes the profile and lands on the dashboard', async () => {
    const { page, context } = await newPage(env.browser);
    const dialog = await openCreateAccount(page);
    await fillIdentity(dialog, 'riley@demo-county.test');
    await dialog.getByLabel('Phone').fill('+1 202 555 0147');
    await dialog.getByRole('textbox', { name: 'Agency', exact: true }).fill('Demo County');
    await page.getByRole('option', { name: /Demo County 911 Communications/ }).click();
    await acceptTerms(page, dialog, true);
    await expectAccessible(page, 'Create Account, filled in');
    await page.screenshot({ path: '/tmp/locus-create-account-filled.png' });
    const reloaded = page.waitForEvent('load');
    await dialog.getByRole('button', { name: 'Create Account' }).click();

    await page.waitForURL(`${env.api.url}/dashboard`);
    await reloaded; // SPEC.md §4: the page reloads 100 ms after landing on the dashboard
    await page.getByRole('button', { name: /Riley Responder/ }).waitFor();
    const row = await userRow('riley@demo-county.test');
    expect(row.psap_id).not.toBeNull();
    expect(row.phone_number).toBe('+1 202 555 0147');
    expect(row.registration_completed_at).not.toBeNull();
    await context.close();
  });

  it('signs up a user whose agency is not listed: the agency name is then required', async () => {
    const { page, context } = await newPage(env.browser);
    const dialog = await openCreateAccount(page);
    await fillIdentity(dialog, 'casey@small-town.test');
    await dialog.getByRole('textbox', { name: 'Agency', exact: true }).fill('Small Town');
    await page.getByRole('option', { name: "My agency isn't listed" }).click();
    await acceptTerms(page, dialog);
    await dialog.getByRole('button', { name: 'Create Account' }).click();
    await dialog.getByLabel('Agency name').waitFor();
    await dialog.getByText('Required').waitFor();
    await expectAccessible(page, 'Create Account, agency not listed');

    await dialog.getByLabel('Agency name').fill('Small Town Police Dispatch');
    await dialog.getByRole('button', { name: 'Create Account' }).click();
    await page.waitForURL(`${env.api.url}/dashboard`);
    await page.getByRole('button', { name: /Riley Responder/ }).waitFor();
    const row = await userRow('casey@small-town.test');
    expect(row.company_name).toBe('Small Town Police Dispatch');
    expect(row.registration_completed_at).not.toBeNull();
    await context.close();
  });

  it('shows the server’s message when sign-up fails', async () => {
    const { page, context } = await newPage(env.browser);
    await page.route('**/api/v1/auth/register', (route) =>
      route.fulfill({
        status: 400,
        contentType: 'application/json',
        body: JSON.stringify({ error: 'captcha-failed', message: 'The security check failed' }),
      }),
    );
    const dialog = await openCreateAccount(page);
    await fillIdentity(dialog, 'failing@demo-county.test');
    await dialog.getByRole('textbox', { name: 'Agency', exact: true }).fill('Demo County');
    await page.getByRole('option', { name: /Demo County 911 Communications/ }).click();
    await acceptTerms(page, dialog);
    await dialog.getByRole('button', { name: 'Create Account' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'The security check failed' }).waitFor();
    await expectAccessible(page, 'Create Account, sign-up refused');

    await page.unroute('**/api/v1/auth/register');
    await page.route('**/api/v1/auth/register', (route) =>
      route.fulfill({ status: 500, contentType: 'text/plain', body: 'boom' }),
    );
    await dialog.getByRole('button', { name: 'Create Account' }).click();
    await dialog
      .getByRole('alert')
      .filter({ hasText: 'Something went wrong with your request' })
      .waitFor();
    await context.close();
  });
});

// A long journey (two users, an e-mail, the 15 s refresh): under a CI machine's load it takes
// 50-110 s, so it gets more than the file's other tests; each step still times out in 10 s.
describe('the coast-guard path', { timeout: 240_000 }, () => {
  it('skips phone and agency, asks for the unit, waits for a coast-guard team admin, then lets the user in', async () => {
    const { page, context } = await newPage(env.browser);
    const dialog = await openCreateAccount(page);
    await fillIdentity(dialog, 'sam.sailor@uscg.mil');
    await dialog.getByText('Coast Guard account').waitFor();
    await settled(page);
    await expectAccessible(page, 'Create Account, coast-guard address');
    expect(await dialog.getByRole('textbox', { name: 'Agency', exact: true }).count()).toBe(0);
    expect(await dialog.getByLabel('Phone').count()).toBe(0);
    await acceptTerms(page, dialog);
    await dialog.getByRole('button', { name: 'Create Account' }).click();

    await page.waitForURL(`${env.api.url}/register/complete-uscg`);
    await page.getByLabel('Unit name').waitFor();
    await settled(page);
    await expectAccessible(page, 'coast-guard registration');
    await page.getByLabel('Unit name').fill('Sector Demo Bay');
    await page.getByRole('button', { name: 'Request access' }).click();
    await page.getByRole('heading', { name: 'Waiting for approval' }).waitFor();
    await page.screenshot({ path: '/tmp/locus-uscg-waiting.png' });

    await page.getByText('Confirm your email first').waitFor();
    await expectAccessible(page, 'waiting for approval, email not confirmed');

    // Until approved, every signed-in page sends the user back here (SPEC.md §4 Route guard)...
    await page.goto(`${env.api.url}/dashboard`);
    await page.waitForURL(`${env.api.url}/register/complete-uscg`);
    await page.getByRole('heading', { name: 'Waiting for approval' }).waitFor();

    // ...but the confirmation link works: admins only see confirmed addresses.
    const confirmation = await waitForEmail(
      env.api.url,
      'sam.sailor@uscg.mil',
      /email-confirmation/,
    );
    const link = linkIn(confirmation, '/register/email-confirmation');
    await page.goto(`${env.api.url}${link.pathname}${link.search}`);
    await page.getByRole('heading', { name: 'Your email is confirmed' }).waitFor();
    await page.getByRole('link', { name: 'Go to the dashboard' }).click();
    await page.waitForURL(`${env.api.url}/register/complete-uscg`);
    await page.getByRole('heading', { name: 'Waiting for approval' }).waitFor();
    expect(await page.getByText('Confirm your email first').count()).toBe(0);

    // A team admin of a coast-guard team approves.
    const team = await env.database.db
      .insertInto('teams')
      .values({ team_name: 'Coast Guard Sector Demo Bay', is_coast_guard: true })
      .returning('id')
      .executeTakeFirstOrThrow();
    const admin = await env.database.db
      .insertInto('users')
      .values({
        first_name: 'Casey',
        last_name: 'Commander',
        email: 'casey.commander@uscg.mil',
        email_confirmed_at: new Date(),
        registration_completed_at: new Date(),
        password_hash: await hashPassword(DEMO_PASSWORD),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await env.database.db
      .insertInto('team_members')
      .values({ team_id: team.id, user_id: admin.id, role: 'admin' })
      .execute();

    const approver = await newPage(env.browser);
    await signInWithForm(approver.page, env.api.url, 'casey.commander@uscg.mil');
    await approver.page.goto(`${env.api.url}/uscg/approval`);
    const request = approver.page.getByRole('listitem', { name: 'Riley Responder' });
    await request.getByText('Sector Demo Bay').waitFor();
    await expectAccessible(approver.page, 'coast-guard approvals, one waiting');
    await approver.page.screenshot({ path: '/tmp/locus-uscg-approval.png' });
    await request.getByRole('button', { name: 'Approve Riley Responder' }).click();
    await approver.page.getByText('No one is waiting for approval.').waitFor();
    await expectAccessible(approver.page, 'coast-guard approvals, none waiting');
    await approver.context.close();

    // The waiting page needs no click: the console re-reads the user every SESSION_REFRESH_MS
    // (15 s), and its "Check again" button does the same read at once. Either way, by itself:
    await page.getByRole('heading', { name: "You're approved" }).waitFor({ timeout: 40_000 });
    await expectAccessible(page, 'coast-guard access approved');
    await page.getByRole('link', { name: 'Go to the dashboard' }).click();
    await page.waitForURL(`${env.api.url}/dashboard`);
    await page.getByRole('button', { name: /Riley Responder/ }).waitFor();
    await context.close();
  });
});
