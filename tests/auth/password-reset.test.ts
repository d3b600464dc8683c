import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  codeIn,
  DEMO_PASSWORD,
  outbox,
  signIn,
  startAuthStack,
  uniqueEmail,
  waitForEmails,
  type AuthStack,
} from './support';

let stack: AuthStack;

beforeAll(async () => {
  stack = await startAuthStack();
});

afterAll(async () => {
  await stack?.close();
});

const forgot = (email: string) =>
  call(stack.api, 'POST', '/api/v1/auth/forgot-password', { body: { email } });
const update = (resetCode: string, password: string) =>
  call(stack.api, 'POST', '/api/v1/auth/update-password', { body: { resetCode, password } });

describe('forgot password', () => {
  it('answers a known and an unknown address identically', async () => {
    const known = await forgot('teamadmin@demo-county.test');
    const unknown = await forgot(uniqueEmail('nobody'));
    expect(known.status).toBe(202);
    expect(unknown.status).toBe(202);
    expect(unknown.body).toEqual(known.body);
    expect(unknown.headers.get('content-length')).toBe(known.headers.get('content-length'));
    expect(known.body).toEqual({ message: expect.stringMatching(/if an account exists/i) });
  });

  it('resets the password through the e-mailed link, once, and signs out every session', async () => {
    const email = 'dispatcher2@demo-county.test';
    const before = await outbox(stack.api, email);
    const oldSession = await signIn(stack.api, email);
    await forgot(email);
    const mails = await waitForEmails(stack.api, email, before.length + 1);
    expect(mails[0]!.subject).toBe('Reset your Locus password');
    const { code, link } = codeIn(mails[0]!, 'reset-code');
    expect(link.pathname).toBe('/auth/forgot-password/reset');

    const answer = await update(code, 'a brand new password');
    expect(answer.status).toBe(200);

    const stale = await call(stack.api, 'GET', '/api/v1/auth/current-user', { token: oldSession });
    expect(stale.status).toBe(401);
    expect(stale.body).toMatchObject({ error: 'unauthorized' });
    const oldPassword = await call(stack.api, 'POST', '/api/v1/auth/sign-in', {
      body: { email, password: DEMO_PASSWORD },
    });
    expect(oldPassword.body).toMatchObject({ error: 'invalid-credentials' });
    expect(await signIn(stack.api, email, 'a brand new password')).toEqual(expect.any(String));

    const reused = await update(code, 'yet another password');
    expect(reused.status).toBe(400);
    expect(reused.body).toEqual({ error: 'invalid-code', message: expect.any(String) });

    const audit = await stack.database.db
      .selectFrom('audit_log')
      .select(['action', 'detail'])
      .where('action', '=', 'password.reset')
      .execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]!.detail).toMatchObject({ sessionsEnded: 1 });
  });

  it('refuses unknown and expired reset codes, and a confirmation code used as one', async () => {
    expect((await update('B'.repeat(43), 'whatever password')).body).toMatchObject({
      error: 'invalid-code',
    });

    const email = 'dispatcher@demo-county.test';
    const before = await outbox(stack.api, email);
    await forgot(email);
    const { code } = codeIn(
      (await waitForEmails(stack.api, email, before.length + 1))[0]!,
      'reset-code',
    );
    await stack.database.db
      .updateTable('one_time_codes')
      .set({ expires_at: sql<Date>`now() - interval '1 second'` })
      .where('code_hash', '=', createHash('sha256').update(code).digest())
      .execute();
    expect((await update(code, 'whatever password')).body).toMatchObject({
      error: 'invalid-code',
    });
    // The password did not change.
    expect(await signIn(stack.api, email)).toEqual(expect.any(String));

    const registrant = uniqueEmail('mixup');
    await call(stack.api, 'POST', '/api/v1/auth/register', {
      body: {
        firstName: 'Mix',
        lastName: 'Up',
        email: registrant,
        password: 'long enough password',
        agreedToTermsOfService: true,
      },
    });
    const verification = codeIn(
      (await waitForEmails(stack.api, registrant))[0]!,
      'verification-code',
    );
    expect((await update(verification.code, 'long enough password')).body).toMatchObject({
      error: 'invalid-code',
    });
  });

  it('enforces the password rules on the new password', async () => {
    const answer = await update('C'.repeat(43), 'short');
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ error: 'validation-failed' });
  });
});
