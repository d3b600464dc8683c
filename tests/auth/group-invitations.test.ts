import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  codeIn,
  signIn,
  startAuthStack,
  uniqueEmail,
  waitForEmails,
  type AuthStack,
} from './support';

let stack: AuthStack;
let teamAdmin: string;
let teamId: string;
let neighbourId: string;

const existing = 'dispatcher@neighbour-county.test';

beforeAll(async () => {
  stack = await startAuthStack();
  teamAdmin = await signIn(stack.api, 'teamadmin@demo-county.test');
  const { db } = stack.database;
  teamId = (
    await db
      .selectFrom('teams')
      .select('id')
      .where('team_name', '=', 'Demo County 911')
      .executeTakeFirstOrThrow()
  ).id;
  neighbourId = (
    await db
      .selectFrom('users')
      .select('id')
      .where('email', '=', existing)
      .executeTakeFirstOrThrow()
  ).id;
});

afterAll(async () => {
  await stack?.close();
});

const groupRegister = (email: string) =>
  call(stack.api, 'POST', '/api/v1/auth/group-register', {
    token: teamAdmin,
    body: { teamId, users: [{ firstName: 'Sam', lastName: 'Lee', email }] },
  });

async function isMember(userId: string): Promise<boolean> {
  const row = await stack.database.db
    .selectFrom('team_members')
    .select('role')
    .where('team_id', '=', teamId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row !== undefined;
}

describe('group registration of an address that already has an account', () => {
  it('answers exactly as for a new address', async () => {
    const forNew = await groupRegister(uniqueEmail('brand-new', 'demo-county.test'));
    const forExisting = await groupRegister(existing);
    expect(forExisting.status).toBe(forNew.status);
    expect(forExisting.body).toEqual(forNew.body);
    expect(forExisting.body).toEqual({ invited: 1 });
    expect(forExisting.headers.get('content-length')).toBe(forNew.headers.get('content-length'));
  });

  it('does not add the account; its owner is e-mailed an invitation and joins by accepting it', async () => {
    expect(await isMember(neighbourId)).toBe(false);
    const [invitation] = await waitForEmails(stack.api, existing);
    expect(invitation!.subject).toBe('You are invited to join Demo County 911 on Locus');
    expect(invitation!.text).toContain('Terry Admin');
    const { code, link } = codeIn(invitation!, 'invitation-code');
    expect(link.pathname).toBe('/auth/accept-invitation');

    const accept = () =>
      call(stack.api, 'POST', '/api/v1/auth/accept-invitation', {
        body: { invitationCode: code },
      });
    const accepted = await accept();
    expect(accepted.status).toBe(200);
    expect(accepted.body).toEqual({
      message: expect.stringContaining('Demo County 911'),
      teamName: 'Demo County 911',
    });
    expect(await isMember(neighbourId)).toBe(true);

    // Single-use.
    const again = await accept();
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ error: 'invalid-code' });

    // The invitation is on the team's trail by the address typed, exactly as for an address
    // with no account (the trail must not tell the team's admins who has one).
    const audit = await stack.database.db
      .selectFrom('audit_log')
      .select(['action', 'actor_user_id', 'detail'])
      .where((eb) =>
        eb.or([
          eb.and([eb('subject', '=', existing.toLowerCase()), eb('action', '=', 'user.invited')]),
          eb.and([eb('subject', '=', neighbourId), eb('action', '=', 'team.invitation-accepted')]),
        ]),
      )
      .orderBy('id')
      .execute();
    expect(audit).toEqual([
      {
        action: 'user.invited',
        actor_user_id: expect.any(String),
        detail: { teamId, role: 'member' },
      },
      {
        action: 'team.invitation-accepted',
        actor_user_id: neighbourId,
        detail: { teamId, role: 'member', invitedBy: audit[0]!.actor_user_id },
      },
    ]);
  });

  it('refuses a made-up code', async () => {
    const answer = await call(stack.api, 'POST', '/api/v1/auth/accept-invitation', {
      body: { invitationCode: 'A'.repeat(43) },
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ error: 'invalid-code' });
  });
});

describe('an address new to Locus, registered by its team admin', () => {
  it('can locate once the invitee has chosen a password: the team is their agency', async () => {
    const email = uniqueEmail('new-dispatcher', 'demo-county.test');
    expect((await groupRegister(email)).status).toBe(200);
    const [invitation] = await waitForEmails(stack.api, email);
    const { code } = codeIn(invitation!, 'reset-code');
    const password = 'Correct-horse-battery-2026';
    const set = await call(stack.api, 'POST', '/api/v1/auth/update-password', {
      body: { resetCode: code, password },
    });
    expect(set.status).toBe(200);
    const token = await signIn(stack.api, email, password);
    const started = await call(stack.api, 'POST', '/api/v1/location/start-stream', {
      token,
      body: { phoneNumber: '+12025550177' },
    });
    expect(started.status).toBe(200);
  });
});
