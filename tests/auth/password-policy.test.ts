import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  codeIn,
  outbox,
  registration,
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

const tooCommon = {
  error: 'validation-failed',
  message: 'This password is too common. Choose another.',
  issues: [{ path: 'password', message: 'This password is too common. Choose another.' }],
};

const register = (password: string) =>
  call(stack.api, 'POST', '/api/v1/auth/register', {
    body: registration(uniqueEmail('policy'), { password }),
  });

describe('choosing a password (ASVS 2.1)', () => {
  it('refuses common and breached passwords on sign-up, whatever their case', async () => {
    for (const password of ['password123', 'Password123', 'qwerty123', 'iloveyou1']) {
      const answer = await register(password);
      expect(answer.status, password).toBe(400);
      expect(answer.body).toEqual(tooCommon);
    }
    expect((await register('lighthouse keeper 42 harbour')).status).toBe(201);
  });

  it('accepts 8 to 128 characters, no more', async () => {
    const long = (length: number) => 'horse battery staple '.repeat(10).slice(0, length);
    expect((await register(long(128))).status).toBe(201);
    const tooLong = await register(long(129));
    expect(tooLong.status).toBe(400);
    expect(tooLong.body).toMatchObject({
      error: 'validation-failed',
      issues: [{ path: 'password', message: expect.stringMatching(/128/) }],
    });
    expect((await register('short')).status).toBe(400);
  });

  it('still lets sign-in try passwords up to the old 256 characters', async () => {
    const answer = await call(stack.api, 'POST', '/api/v1/auth/sign-in', {
      body: { email: uniqueEmail('old'), password: 'x'.repeat(200) },
    });
    expect(answer.body).toMatchObject({ error: 'invalid-credentials' });
  });

  it('refuses a common password on reset, and the link still works for a better one', async () => {
    const email = 'dispatcher@neighbour-county.test';
    const before = await outbox(stack.api, email);
    await call(stack.api, 'POST', '/api/v1/auth/forgot-password', { body: { email } });
    const mails = await waitForEmails(stack.api, email, before.length + 1);
    const { code } = codeIn(mails[0]!, 'reset-code');
    const update = (password: string) =>
      call(stack.api, 'POST', '/api/v1/auth/update-password', {
        body: { resetCode: code, password },
      });

    const common = await update('password1');
    expect(common.status).toBe(400);
    expect(common.body).toEqual(tooCommon);
    expect((await update('a lantern on the quay')).status).toBe(200);
  });
});
