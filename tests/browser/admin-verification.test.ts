import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  newPage,
  signInWithForm,
  startAuthEnvironment,
  waitForEmail,
  type AuthEnvironment,
} from './auth-support';
import { expectAccessible, expectAccessibleOnceShown } from '../support/browser';

/**
 * Issue 11, "Must show": the platform owner approves a user waiting for verification (an
 * address on a domain that is not cleared), attaching them to Demo County 911, and that user can
 * then locate from the dashboard, with no new sign-in; another is rejected with a reason.
 */
let env: AuthEnvironment;

beforeAll(async () => {
  env = await startAuthEnvironment();
});

afterAll(async () => {
  await env?.close();
});

const password = 'correct horse battery';

async function post(path: string, body: unknown, token?: string) {
  const response = await fetch(`${env.api.url}${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, string> };
}

/**
 * Registers as a visitor would (through the API, the sign-up form has its own tests), confirms
 * the address from the outbox and picks a listed agency: a complete registration whose domain
 * is not cleared, so the user waits for verification.
 */
async function waitingUser(firstName: string, email: string): Promise<void> {
  const registered = await post('/api/v1/auth/register', {
    firstName,
    lastName: 'Applicant',
    email,
    password,
    agreedToTermsOfService: true,
  });
  expect(registered.status).toBe(201);
  const mail = await waitForEmail(env.api.url, email, /verification-code=/);
  const code = /verification-code=([A-Za-z0-9_-]+)/.exec(mail.text)![1];
  expect((await post('/api/v1/auth/confirm-email', { verificationCode: code })).status).toBe(200);
  const psap = await env.database.db
    .selectFrom('psaps')
    .select('id')
    .orderBy('id')
    .executeTakeFirstOrThrow();
  const completed = await post(
    '/api/v1/auth/complete-registration',
    { psapPrimaryKey: psap.id },
    registered.body.token,
  );
  expect(completed.status).toBe(200);
}

describe('the verification screen', { timeout: 180_000 }, () => {
  it('lets the platform owner approve a waiting user onto Demo County 911, who can then locate', async () => {
    const email = `avery.${Date.now()}@unvetted-agency.test`;
    await waitingUser('Avery', email);

    // The waiting user's dashboard: no team yet, so no Locate.
    const applicant = await newPage(env.browser);
    await signInWithForm(applicant.page, env.api.url, email, password);
    await applicant.page
      .getByRole('status')
      .filter({ hasText: 'Locating is not available' })
      .waitFor();
    await expectAccessible(applicant.page, 'dashboard of a user waiting for verification');

    const { page, context } = await newPage(env.browser);
    await signInWithForm(page, env.api.url, 'owner@locus.test');
    await page.goto(`${env.api.url}/admin`);
    await page
      .getByRole('navigation', { name: 'Admin sections' })
      .getByRole('link', {
        name: 'VERIFICATION',
      })
      .click();
    await page.waitForURL(`${env.api.url}/admin/verification/edit`);
    await page.getByRole('heading', { level: 1, name: 'Verification' }).waitFor();
    const queue = page.getByRole('table', { name: 'Waiting for verification' });
    const row = queue.getByRole('row').filter({ hasText: email });
    await row.getByText('E-mail domain not cleared').waitFor();
    await row.getByText('unvetted-agency.test', { exact: true }).waitFor();
    await expectAccessible(page, 'the verification queue');

    // Approve onto Demo County 911 as a dispatcher.
    await row.getByRole('button', { name: 'Approve Avery Applicant' }).click();
    const approve = page.getByRole('dialog', { name: 'Approve Avery Applicant' });
    await approve.getByRole('button', { name: 'Approve' }).click();
    await expectAccessibleOnceShown(
      page,
      approve.getByText('Choose a team'),
      'approve modal without a team',
    );
    await approve.getByRole('combobox', { name: 'Team' }).click();
    await page.getByRole('option', { name: 'Demo County 911', exact: true }).click();
    await expect
      .poll(() => approve.getByRole('radio', { name: 'Dispatcher' }).isChecked())
      .toBe(true);
    await expectAccessible(page, 'approve modal with a team chosen');
    await approve.getByRole('button', { name: 'Approve' }).click();
    await approve.waitFor({ state: 'detached' });
    await page
      .getByRole('alert')
      .filter({ hasText: 'Avery Applicant approved and added to Demo County 911' })
      .waitFor();
    await row.waitFor({ state: 'detached' });
    await expectAccessible(page, 'the queue after approving');

    // The applicant, still signed in with the same session: after a reload, Locate works.
    await applicant.page.reload();
    const number = '+12025550177';
    await applicant.page.getByLabel('Phone number').fill(number);
    await applicant.page.getByRole('button', { name: 'Locate' }).click();
    await applicant.page.getByRole('banner').getByText(`Locating ${number}`).waitFor();
    expect(
      await applicant.page
        .getByRole('dialog', { name: 'Your email domain is not cleared' })
        .count(),
    ).toBe(0);
    await expectAccessible(applicant.page, 'the approved user locating');
    await applicant.context.close();
    await context.close();
  });

  it('lets the platform owner reject a waiting user with a reason, which is e-mailed to them', async () => {
    const rejectEmail = `rex.${Date.now()}@unvetted-agency.test`;
    await waitingUser('Rex', rejectEmail);
    const { page, context } = await newPage(env.browser);
    await signInWithForm(page, env.api.url, 'owner@locus.test');
    await page.goto(`${env.api.url}/admin/verification/edit`);
    const queue = page.getByRole('table', { name: 'Waiting for verification' });
    const row = queue.getByRole('row').filter({ hasText: rejectEmail });
    await row.getByText('E-mail domain not cleared').waitFor();
    await expectAccessible(page, 'the queue with a user to reject');
    // The reason is required, and is e-mailed.
    await row.getByRole('button', { name: 'Reject Rex Applicant' }).click();
    const reject = page.getByRole('dialog', { name: 'Reject Rex Applicant' });
    await reject.getByRole('button', { name: 'Reject' }).click();
    await expectAccessibleOnceShown(
      page,
      reject.getByText('Enter the reason; the user receives it by e-mail'),
      'reject modal without a reason',
    );
    await reject.getByRole('textbox', { name: 'Reason' }).fill('We could not confirm your agency.');
    await reject.getByRole('button', { name: 'Reject' }).click();
    await reject.waitFor({ state: 'detached' });
    await row.waitFor({ state: 'detached' });
    const notice = await waitForEmail(env.api.url, rejectEmail, /could not confirm your agency/);
    expect(notice.subject).toMatch(/not approved/);
    await expectAccessible(page, 'the queue after rejecting');
    await context.close();
  });

  it('lets the platform owner clear and remove an e-mail domain, at 320 px', async () => {
    const { page, context } = await newPage(env.browser, { width: 320, height: 720 });
    await signInWithForm(page, env.api.url, 'owner@locus.test');
    await page.goto(`${env.api.url}/admin/verification/edit`);
    const section = page.getByRole('region', { name: 'Cleared domains' });
    const list = section.getByRole('list', { name: 'Cleared domains' });
    await list.getByText('demo-county.test', { exact: true }).waitFor();
    await expectAccessible(page, 'cleared domains at 320 px');

    const input = section.getByRole('textbox', { name: 'Domain to clear' });
    await input.fill('not a domain');
    await section.getByRole('button', { name: 'Add domain' }).click();
    await expectAccessibleOnceShown(
      page,
      section.getByText('Enter a domain such as county.gov, without @ or spaces'),
      'an invalid domain',
    );
    await input.fill('River-County.GOV');
    await section.getByRole('button', { name: 'Add domain' }).click();
    await list.getByText('river-county.gov', { exact: true }).waitFor();
    await input.fill('demo-county.test');
    await section.getByRole('button', { name: 'Add domain' }).click();
    await expectAccessibleOnceShown(
      page,
      section.getByText('This domain is cleared already'),
      'a domain cleared already',
    );
    await list.getByRole('button', { name: 'Remove river-county.gov' }).click();
    await list.getByText('river-county.gov', { exact: true }).waitFor({ state: 'detached' });
    await expectAccessible(page, 'cleared domains after removing one');
    await context.close();
  });
});
