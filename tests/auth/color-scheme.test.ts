import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, signIn, startAuthStack, type AuthStack } from './support';

// Issue 24: the console's theme is remembered per user, so it is part of the signed-in user and
// changed with the self patch.

let stack: AuthStack;
let dispatcher: string;
let teamAdmin: string;

beforeAll(async () => {
  stack = await startAuthStack({ worker: false });
  [dispatcher, teamAdmin] = await Promise.all([
    signIn(stack.api, 'dispatcher@demo-county.test'),
    signIn(stack.api, 'teamadmin@demo-county.test'),
  ]);
});

afterAll(async () => {
  await stack?.close();
});

interface User {
  id: string;
  firstName: string;
  colorScheme: string;
}

const currentUser = async (token: string) =>
  (await call<User>(stack.api, 'GET', '/api/v1/auth/current-user', { token })).body;

describe('the colour scheme', () => {
  it('follows the system until the user chooses', async () => {
    expect((await currentUser(teamAdmin)).colorScheme).toBe('auto');
  });

  it('is changed by the user, and every session of theirs sees it', async () => {
    const { id } = await currentUser(dispatcher);
    const answer = await call<User>(stack.api, 'PATCH', `/api/v1/users/${id}`, {
      token: dispatcher,
      body: { colorScheme: 'dark' },
    });
    expect(answer.status).toBe(200);
    expect(answer.body.colorScheme).toBe('dark');

    const otherSession = await signIn(stack.api, 'dispatcher@demo-county.test');
    expect((await currentUser(otherSession)).colorScheme).toBe('dark');

    const back = await call<User>(stack.api, 'PATCH', `/api/v1/users/${id}`, {
      token: otherSession,
      body: { colorScheme: 'auto' },
    });
    expect(back.body.colorScheme).toBe('auto');
    expect((await currentUser(dispatcher)).colorScheme).toBe('auto');
  });

  it('refuses an unknown scheme with 400, changing nothing', async () => {
    const before = await currentUser(dispatcher);
    for (const colorScheme of ['purple', null, 'DARK', 1]) {
      const answer = await call(stack.api, 'PATCH', `/api/v1/users/${before.id}`, {
        token: dispatcher,
        body: { firstName: 'Changed', colorScheme },
      });
      expect(answer.status, String(colorScheme)).toBe(400);
      expect(answer.body).toMatchObject({
        error: 'validation-failed',
        message: expect.any(String),
      });
    }
    expect(await currentUser(dispatcher)).toEqual(before);
  });

  it("cannot be changed on someone else's account by a team admin", async () => {
    const { id } = await currentUser(dispatcher);
    const answer = await call(stack.api, 'PATCH', `/api/v1/users/${id}`, {
      token: teamAdmin,
      body: { colorScheme: 'dark' },
    });
    expect(answer.status).toBe(403);
    expect((await currentUser(dispatcher)).colorScheme).toBe('auto');
  });

  it('is held to the same values by the database', async () => {
    await expect(
      sql`update users set color_scheme = 'purple' where email = 'dispatcher@demo-county.test'`.execute(
        stack.database.db,
      ),
    ).rejects.toMatchObject({ code: '23514' });
  });
});
