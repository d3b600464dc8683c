import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  codeIn,
  registration,
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

const register = (body: Record<string, unknown>) =>
  call<{ token: string; expiresAt: string }>(stack.api, 'POST', '/api/v1/auth/register', { body });
const me = (token: string) =>
  call<Record<string, unknown>>(stack.api, 'GET', '/api/v1/auth/current-user', { token });
const confirm = (verificationCode: string) =>
  call(stack.api, 'POST', '/api/v1/auth/confirm-email', { body: { verificationCode } });

describe('registering', () => {
  it('creates an unconfirmed account, signs it in and e-mails a confirmation link that works once', async () => {
    const email = uniqueEmail('new');
    const answer = await register(registration(email));
    expect(answer.status).toBe(201);
    expect(answer.body).toEqual({ token: expect.any(String), expiresAt: expect.any(String) });
    expect((await me(answer.body.token)).body).toMatchObject({
      email,
      firstName: 'Riley',
      emailConfirmed: false,
      registrationComplete: false,
      companyName: null,
    });

    const [mail] = await waitForEmails(stack.api, email);
    expect(mail!.subject).toMatch(/confirm/i);
    const { code, link } = codeIn(mail!, 'verification-code');
    expect(link.pathname).toBe('/register/email-confirmation');

    const confirmed = await confirm(code);
    expect(confirmed.status).toBe(200);
    expect((await me(answer.body.token)).body).toMatchObject({ emailConfirmed: true });

    const again = await confirm(code);
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ error: 'invalid-code', message: expect.any(String) });
  });

  it('answers an already-registered address exactly like a new one, and tells the owner by e-mail', async () => {
    const owner = 'dispatcher@demo-county.test';
    const fresh = uniqueEmail('fresh');
    const [forOwner, forFresh] = await Promise.all([
      register(registration(owner, { password: 'a new password 1' })),
      register(registration(fresh)),
    ]);
    expect(forOwner.status).toBe(forFresh.status);
    expect(Object.keys(forOwner.body).sort()).toEqual(Object.keys(forFresh.body).sort());
    expect(forOwner.headers.get('content-length')).toBe(forFresh.headers.get('content-length'));

    const [notice] = await waitForEmails(stack.api, owner);
    expect(notice!.subject).toBe('You already have a Locus account');
    expect(notice!.text).toMatch(/sign in|reset/i);
    expect(notice!.text).not.toContain('verification-code');
    // It greets the real owner, not whatever name the registrant typed.
    expect(notice!.text).toContain('Hello Dana');

    // The owner's account is untouched: the old password still works, the new one does not.
    expect(await signIn(stack.api, owner)).toEqual(expect.any(String));
    const withNewPassword = await call(stack.api, 'POST', '/api/v1/auth/sign-in', {
      body: { email: owner, password: 'a new password 1' },
    });
    expect(withNewPassword.body).toMatchObject({ error: 'invalid-credentials' });
  });

  it('refuses bad input with validation-failed, naming the fields', async () => {
    const answer = await call<{ error: string; issues: { path: string }[] }>(
      stack.api,
      'POST',
      '/api/v1/auth/register',
      {
        body: registration('not-an-email', {
          password: 'short',
          firstName: '',
          agreedToTermsOfService: false,
        }),
      },
    );
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe('validation-failed');
    expect(answer.body.issues.map((issue) => issue.path).sort()).toEqual([
      'agreedToTermsOfService',
      'email',
      'firstName',
      'password',
    ]);
  });
});

describe('confirmation codes', () => {
  it('are refused when unknown, expired or of the wrong shape', async () => {
    expect((await confirm('A'.repeat(43))).body).toMatchObject({ error: 'invalid-code' });
    expect((await confirm('short')).body).toMatchObject({ error: 'validation-failed' });

    const email = uniqueEmail('late');
    await register(registration(email));
    const { code } = codeIn((await waitForEmails(stack.api, email))[0]!, 'verification-code');
    await stack.database.db
      .updateTable('one_time_codes')
      .set({ expires_at: sql<Date>`now() - interval '1 second'` })
      .where('code_hash', '=', createHash('sha256').update(code).digest())
      .execute();
    const late = await confirm(code);
    expect(late.status).toBe(400);
    expect(late.body).toMatchObject({ error: 'invalid-code' });
  });

  it('are stored only as hashes', async () => {
    const email = uniqueEmail('hashed');
    await register(registration(email));
    const { code } = codeIn((await waitForEmails(stack.api, email))[0]!, 'verification-code');
    const rows = await stack.database.db.selectFrom('one_time_codes').select('code_hash').execute();
    expect(rows.some((row) => row.code_hash.equals(Buffer.from(code)))).toBe(false);
    expect(
      rows.some((row) => row.code_hash.equals(createHash('sha256').update(code).digest())),
    ).toBe(true);
  });

  it('of a duplicate never confirm an address another account has confirmed', async () => {
    const email = uniqueEmail('twice');
    const first = await register(registration(email, { firstName: 'First' }));
    const second = await register(registration(email, { firstName: 'Second' }));
    const mails = await waitForEmails(stack.api, email, 2);
    const codeFor = (name: string) =>
      codeIn(
        mails.find((mail) => mail.text.includes(`Hello ${name}`))!,
        'verification-code',
      ).code;
    expect((await confirm(codeFor('Second'))).status).toBe(200);
    expect((await me(second.body.token)).body).toMatchObject({ emailConfirmed: true });
    // The other unconfirmed account of that address is gone with its session.
    expect((await me(first.body.token)).status).toBe(401);
    expect((await confirm(codeFor('First'))).body).toMatchObject({ error: 'invalid-code' });
  });
});

describe('resending the confirmation', () => {
  it('answers the same for a waiting, a confirmed and an unknown address; only the waiting one gets mail', async () => {
    const waiting = uniqueEmail('waiting');
    await register(registration(waiting));
    await waitForEmails(stack.api, waiting, 1);
    const resend = (email: string) =>
      call(stack.api, 'POST', '/api/v1/auth/resend-email-confirmation', { body: { email } });
    const answers = await Promise.all([
      resend(waiting),
      resend('dispatcher2@demo-county.test'),
      resend(uniqueEmail('unknown')),
    ]);
    for (const answer of answers) {
      expect(answer.status).toBe(202);
      expect(answer.body).toEqual(answers[0]!.body);
    }
    const mails = await waitForEmails(stack.api, waiting, 2);
    expect((await confirm(codeIn(mails[0]!, 'verification-code').code)).status).toBe(200);
  });
});

describe('completing the profile', () => {
  async function newUser(domain = 'agency.test') {
    const email = uniqueEmail('profile', domain);
    const { body } = await register(registration(email));
    return { email, token: body.token };
  }

  it('with a listed agency', async () => {
    const { token } = await newUser();
    const [agency] = (
      await call<{ id: number; name: string }[]>(stack.api, 'POST', '/api/v1/psap/search', {
        body: { searchTerm: 'county' },
      })
    ).body;
    const answer = await call(stack.api, 'POST', '/api/v1/auth/complete-registration', {
      token,
      body: { psapPrimaryKey: agency!.id, phoneNumber: '+12025550123' },
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      psapId: agency!.id,
      phoneNumber: '+12025550123',
      registrationComplete: true,
    });
    const unknown = await call(stack.api, 'POST', '/api/v1/auth/complete-registration', {
      token,
      body: { psapPrimaryKey: 999999 },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ error: 'validation-failed' });
  });

  it("with an agency that isn't listed: its name becomes the company name", async () => {
    const { token } = await newUser();
    const answer = await call(stack.api, 'POST', '/api/v1/auth/join-unlisted', {
      token,
      body: { companyName: 'Lakeside Harbor Patrol' },
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      companyName: 'Lakeside Harbor Patrol',
      psapId: null,
      registrationComplete: true,
    });
    const empty = await call(stack.api, 'POST', '/api/v1/auth/join-unlisted', {
      token,
      body: { companyName: ' ' },
    });
    expect(empty.body).toMatchObject({ error: 'validation-failed' });
  });

  it('as the coast guard: only for coast-guard addresses, and then pending approval', async () => {
    const civilian = await newUser();
    const refused = await call(stack.api, 'POST', '/api/v1/auth/complete-registration-uscg', {
      token: civilian.token,
      body: { unitName: 'Sector Nowhere' },
    });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ error: 'forbidden' });

    const guard = await newUser('uscg.mil');
    const answer = await call(stack.api, 'POST', '/api/v1/auth/complete-registration-uscg', {
      token: guard.token,
      body: { unitName: 'Sector Delaware Bay' },
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ uscgApproval: 'pending', registrationComplete: true });
  });

  it('needs a session', async () => {
    const answer = await call(stack.api, 'POST', '/api/v1/auth/join-unlisted', {
      body: { companyName: 'Anyone' },
    });
    expect(answer.status).toBe(401);
    expect(answer.body).toMatchObject({ error: 'unauthorized' });
  });
});
