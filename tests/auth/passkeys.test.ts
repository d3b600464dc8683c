import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SoftwareAuthenticator } from './software-authenticator';
import { signInLockout } from '@locus/contract';
import {
  auditRowsSince,
  call,
  DEMO_PASSWORD,
  lastAuditId,
  lockLiftsAt,
  signIn,
  startAuthStack,
  type AuthStack,
} from './support';

/**
 * WebAuthn passkeys as a second factor, against the API's real verification: a software
 * authenticator (ES256, 'none' attestation) answers the way a browser and a security key do.
 */

const RP_ID = 'localhost';
const ORIGIN = 'http://localhost:5173';

let stack: AuthStack;

beforeAll(async () => {
  stack = await startAuthStack({
    worker: false,
    env: { WEBAUTHN_RP_ID: RP_ID, WEBAUTHN_ORIGIN: ORIGIN },
  });
});

afterAll(async () => {
  await stack?.close();
});

interface Options {
  challenge: string;
  rp?: { id: string; name: string };
  allowCredentials?: { id: string }[];
  excludeCredentials?: { id: string }[];
}

interface Passkey {
  id: string;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
}

async function registrationOptions(token: string): Promise<Options> {
  const answer = await call<Options>(stack.api, 'POST', '/api/v1/auth/mfa/passkeys/options', {
    token,
    body: { password: DEMO_PASSWORD },
  });
  expect(answer.status).toBe(200);
  return answer.body;
}

async function register(email: string, name: string) {
  const token = await signIn(stack.api, email);
  const authenticator = new SoftwareAuthenticator(RP_ID, ORIGIN);
  const options = await registrationOptions(token);
  const added = await call<Passkey>(stack.api, 'POST', '/api/v1/auth/mfa/passkeys', {
    token,
    body: { name, response: authenticator.register(options.challenge) },
  });
  expect(added.status).toBe(201);
  return { token, authenticator, passkey: added.body };
}

async function passwordStep(email: string) {
  const answer = await call<{ challenge: string; methods: string[]; token?: string }>(
    stack.api,
    'POST',
    '/api/v1/auth/sign-in',
    { body: { email, password: DEMO_PASSWORD } },
  );
  expect(answer.status).toBe(200);
  return answer.body;
}

async function signInOptions(challenge: string) {
  return call<Options>(stack.api, 'POST', '/api/v1/auth/sign-in/mfa/passkey/options', {
    body: { challenge },
  });
}

function passkeyStep(challenge: string, response: unknown) {
  return call<{ token: string; expiresAt: string }>(
    stack.api,
    'POST',
    '/api/v1/auth/sign-in/mfa/passkey',
    { body: { challenge, response } },
  );
}

async function auditActions(subject: string): Promise<string[]> {
  const rows = await stack.database.db
    .selectFrom('audit_log')
    .select('action')
    .where('subject', '=', subject)
    .orderBy('id')
    .execute();
  return rows.map((row) => row.action);
}

async function userId(token: string): Promise<string> {
  const me = await call<{ id: string }>(stack.api, 'GET', '/api/v1/auth/current-user', { token });
  return me.body.id;
}

/** Dana's passkey, which the sign-in tests use and the removal test removes. */
const dana = {
  email: 'dispatcher@demo-county.test',
  token: '',
  authenticator: undefined as SoftwareAuthenticator | undefined,
  passkeyId: '',
};

describe('adding a passkey', () => {
  it('needs a signed-in user', async () => {
    const options = await call(stack.api, 'POST', '/api/v1/auth/mfa/passkeys/options', {
      body: { password: DEMO_PASSWORD },
    });
    expect(options.status).toBe(401);
    expect(options.body).toMatchObject({ error: 'unauthorized' });
    const list = await call(stack.api, 'GET', '/api/v1/auth/mfa/passkeys');
    expect(list.status).toBe(401);
    const authenticator = new SoftwareAuthenticator(RP_ID, ORIGIN);
    const add = await call(stack.api, 'POST', '/api/v1/auth/mfa/passkeys', {
      body: { name: 'Laptop', response: authenticator.register('x'.repeat(43)) },
    });
    expect(add.status).toBe(401);
  });

  it('needs the current password, and wrong ones count toward the account lockout', async () => {
    const email = 'dispatcher2@demo-county.test';
    const token = await signIn(stack.api, email);
    const withoutPassword = await call(stack.api, 'POST', '/api/v1/auth/mfa/passkeys/options', {
      token,
    });
    expect(withoutPassword.status).toBe(400);
    expect('challenge' in (withoutPassword.body as object)).toBe(false);
    const answers = [];
    for (let attempt = 1; attempt <= 5; attempt += 1) {
      answers.push(
        await call(stack.api, 'POST', '/api/v1/auth/mfa/passkeys/options', {
          token,
          body: { password: 'not the password' },
        }),
      );
    }
    expect(answers[0]?.status).toBe(401);
    expect(answers[0]?.body).toMatchObject({ error: 'invalid-credentials' });
    expect(answers.some((answer) => 'challenge' in (answer.body as object))).toBe(false);
    // Counted like failed sign-ins, but audited as what they are (the signed-in user's), not as
    // failed sign-ins: 'mfa-change.failed' each, then the lock.
    const failures = (await auditActions(await userId(token))).filter(
      (action) => action === 'mfa-change.failed',
    );
    expect(failures).toHaveLength(5);
    expect(await auditActions(email)).toEqual(['sign-in.locked']);
    // The fifth wrong password locked the account: sign-in and the right password are refused.
    const signInAgain = await call(stack.api, 'POST', '/api/v1/auth/sign-in', {
      body: { email, password: DEMO_PASSWORD },
    });
    expect(signInAgain.body).toMatchObject({ error: 'account-locked' });
    // That attempt was a failed sign-in, refused for the lock.
    expect(await auditActions(email)).toEqual(['sign-in.locked', 'sign-in.failed']);
    const right = await call(stack.api, 'POST', '/api/v1/auth/mfa/passkeys/options', {
      token,
      body: { password: DEMO_PASSWORD },
    });
    expect(right.body).toMatchObject({ error: 'account-locked' });
  });

  it("refuses an answer to another user's challenge, then keeps the owner's", async () => {
    const danaToken = await signIn(stack.api, dana.email);
    // Another password-only session of Dana's, on some other computer.
    const danaElsewhere = await signIn(stack.api, dana.email);
    const adminToken = await signIn(stack.api, 'teamadmin@demo-county.test');
    const danaOptions = await registrationOptions(danaToken);
    expect(danaOptions.rp).toEqual({ id: RP_ID, name: 'Locus' });
    await registrationOptions(adminToken);

    const authenticator = new SoftwareAuthenticator(RP_ID, ORIGIN);
    const response = authenticator.register(danaOptions.challenge);
    // The team admin sends Dana's signed answer as their own: refused, nothing stored.
    const stolen = await call(stack.api, 'POST', '/api/v1/auth/mfa/passkeys', {
      token: adminToken,
      body: { name: 'Not mine', response },
    });
    expect(stolen.status).toBe(400);
    expect(stolen.body).toMatchObject({ error: 'validation-failed' });
    const adminList = await call<Passkey[]>(stack.api, 'GET', '/api/v1/auth/mfa/passkeys', {
      token: adminToken,
    });
    expect(adminList.body).toEqual([]);

    // An answer from another origin (a phishing site) is refused too.
    const phished = new SoftwareAuthenticator(RP_ID, 'http://locus.example.evil');
    const fromElsewhere = await call(stack.api, 'POST', '/api/v1/auth/mfa/passkeys', {
      token: danaToken,
      body: { name: 'Phished', response: phished.register(danaOptions.challenge) },
    });
    expect(fromElsewhere.status).toBe(400);

    // That request used Dana's challenge: each works once, so she asks for a new one.
    const retry = await registrationOptions(danaToken);
    const added = await call<Passkey>(stack.api, 'POST', '/api/v1/auth/mfa/passkeys', {
      token: danaToken,
      body: { name: ' Work laptop ', response: authenticator.register(retry.challenge) },
    });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ name: 'Work laptop', lastUsedAt: null });

    const list = await call<Passkey[]>(stack.api, 'GET', '/api/v1/auth/mfa/passkeys', {
      token: danaToken,
    });
    expect(list.body).toEqual([added.body]);
    const me = await call(stack.api, 'GET', '/api/v1/auth/current-user', { token: danaToken });
    expect(me.body).toMatchObject({ mfaEnabled: true, mfaRequired: false });
    expect(await auditActions(await userId(danaToken))).toContain('mfa.passkey-added');
    // Her first second factor ends the sessions started with the password alone, but this one.
    const elsewhere = await call(stack.api, 'GET', '/api/v1/auth/current-user', {
      token: danaElsewhere,
    });
    expect(elsewhere.status).toBe(401);

    // The same key cannot be registered twice: the next options exclude it.
    const again = await registrationOptions(danaToken);
    expect(again.excludeCredentials?.map((credential) => credential.id)).toEqual([
      authenticator.id,
    ]);
    Object.assign(dana, { token: danaToken, authenticator, passkeyId: added.body.id });
  });
});

describe('signing in with a passkey', () => {
  it('offers a passkey after the password and signs in with the right assertion', async () => {
    const step = await passwordStep(dana.email);
    expect(step.token).toBeUndefined();
    expect(step.methods).toEqual(['webauthn']);

    const options = await signInOptions(step.challenge);
    expect(options.status).toBe(200);
    expect(options.body.allowCredentials?.map((credential) => credential.id)).toEqual([
      dana.authenticator!.id,
    ]);
    const signedIn = await passkeyStep(
      step.challenge,
      dana.authenticator!.assert(options.body.challenge, 1),
    );
    expect(signedIn.status).toBe(200);
    const me = await call(stack.api, 'GET', '/api/v1/auth/current-user', {
      token: signedIn.body.token,
    });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ email: dana.email });

    const list = await call<Passkey[]>(stack.api, 'GET', '/api/v1/auth/mfa/passkeys', {
      token: signedIn.body.token,
    });
    expect(list.body[0]?.lastUsedAt).toEqual(expect.any(String));
    expect(await auditActions(await userId(signedIn.body.token))).toContain('sign-in.passkey');

    // The challenge signed in once; it does not sign in again.
    const again = await passkeyStep(
      step.challenge,
      dana.authenticator!.assert(options.body.challenge, 2),
    );
    expect(again.status).toBe(401);
    expect(again.body).toMatchObject({ error: 'mfa-challenge-expired' });
  });

  it('refuses an assertion over another challenge, and counts it as a failed sign-in', async () => {
    const step = await passwordStep(dana.email);
    const options = await signInOptions(step.challenge);
    expect(options.status).toBe(200);
    const wrong = await passkeyStep(
      step.challenge,
      dana.authenticator!.assert(randomBytes(32).toString('base64url'), 5),
    );
    expect(wrong.status).toBe(401);
    expect(wrong.body).toMatchObject({ error: 'invalid-mfa-code' });
    const failures = await auditActions(await userId(dana.token));
    expect(failures).toContain('sign-in.mfa-failed');
    expect(await auditActions(dana.email)).toContain('sign-in.failed');

    // An assertion with no options asked for (the WebAuthn challenge is used up) is refused.
    const unasked = await passkeyStep(
      step.challenge,
      dana.authenticator!.assert(options.body.challenge, 6),
    );
    expect(unasked.status).toBe(401);
    expect(unasked.body).toMatchObject({ error: 'invalid-mfa-code' });
  });

  it('refuses a replayed signature counter (a cloned key), then accepts a higher one', async () => {
    const step = await passwordStep(dana.email);
    const options = await signInOptions(step.challenge);
    // Counter 1 was accepted in the first sign-in: the same value again is refused.
    const replayed = await passkeyStep(
      step.challenge,
      dana.authenticator!.assert(options.body.challenge, 1),
    );
    expect(replayed.status).toBe(401);
    expect(replayed.body).toMatchObject({ error: 'invalid-mfa-code' });

    const fresh = await signInOptions(step.challenge);
    const accepted = await passkeyStep(
      step.challenge,
      dana.authenticator!.assert(fresh.body.challenge, 2),
    );
    expect(accepted.status).toBe(200);
  });

  it('refuses options for an unknown challenge, and another key than the user’s own', async () => {
    const unknown = await signInOptions(randomBytes(32).toString('base64url'));
    expect(unknown.status).toBe(401);
    expect(unknown.body).toMatchObject({ error: 'mfa-challenge-expired' });

    const step = await passwordStep(dana.email);
    const options = await signInOptions(step.challenge);
    const stranger = new SoftwareAuthenticator(RP_ID, ORIGIN);
    const answer = await passkeyStep(step.challenge, stranger.assert(options.body.challenge, 9));
    expect(answer.status).toBe(401);
    expect(answer.body).toMatchObject({ error: 'invalid-mfa-code' });
  });
});

describe('a passkey for a locked account', () => {
  it('is refused unheard: one failed sign-in audited, nothing counted, the lock unmoved', async () => {
    const email = 'chloe.dubois@demo-county.test';
    const { authenticator } = await register(email, 'Laptop');
    const step = await passwordStep(email);
    const options = await signInOptions(step.challenge);
    expect(options.status).toBe(200);
    // Locked between the two steps (wrong passwords from elsewhere).
    for (let failure = 1; failure <= signInLockout.maxFailures; failure += 1) {
      await call(stack.api, 'POST', '/api/v1/auth/sign-in', {
        body: { email, password: `wrong-${failure}` },
      });
    }
    const liftsAt = await lockLiftsAt(stack, email);
    expect(liftsAt).toBeGreaterThan(Date.now());
    const { id } = await stack.database.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    const since = await lastAuditId(stack);

    const refused = await passkeyStep(
      step.challenge,
      authenticator.assert(options.body.challenge, 1),
    );
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({ error: 'account-locked' });
    // One 'sign-in.failed' saying why; no 'sign-in.mfa-failed' (the assertion was not checked).
    expect(await auditRowsSince(stack, since, [email, id])).toEqual([
      {
        action: 'sign-in.failed',
        actor_user_id: null,
        subject: email,
        team_id: expect.any(String),
        ip: expect.any(String),
        detail: { ip: expect.any(String), userId: id, refused: 'account-locked' },
      },
    ]);
    expect(await lockLiftsAt(stack, email)).toBe(liftsAt);
  });
});

describe('removing a passkey', () => {
  it('works for the owner only, and the last one turns two-step sign-in off', async () => {
    const adminToken = await signIn(stack.api, 'teamadmin@demo-county.test');
    const notTheirs = await call(
      stack.api,
      'DELETE',
      `/api/v1/auth/mfa/passkeys/${dana.passkeyId}`,
      { token: adminToken },
    );
    expect(notTheirs.status).toBe(404);
    const anonymous = await call(
      stack.api,
      'DELETE',
      `/api/v1/auth/mfa/passkeys/${dana.passkeyId}`,
    );
    expect(anonymous.status).toBe(401);

    const removed = await call(stack.api, 'DELETE', `/api/v1/auth/mfa/passkeys/${dana.passkeyId}`, {
      token: dana.token,
    });
    expect(removed.status).toBe(204);
    const list = await call<Passkey[]>(stack.api, 'GET', '/api/v1/auth/mfa/passkeys', {
      token: dana.token,
    });
    expect(list.body).toEqual([]);
    expect(await auditActions(await userId(dana.token))).toContain('mfa.passkey-removed');
    const me = await call(stack.api, 'GET', '/api/v1/auth/current-user', { token: dana.token });
    expect(me.body).toMatchObject({ mfaEnabled: false });

    // The password alone signs in again.
    expect((await passwordStep(dana.email)).token).toEqual(expect.any(String));
  });

  it("is refused for the last second factor when the user's team requires one", async () => {
    const email = 'dispatcher@neighbour-county.test';
    const { token, passkey } = await register(email, 'Only key');
    // The team's admin turns the requirement on (the team-policy API has its own test).
    await stack.database.db
      .updateTable('teams')
      .set({ require_mfa: true })
      .where('team_name', '=', 'Neighbouring County')
      .execute();
    // The passkey satisfies the requirement: the console's routes answer.
    const me = await call(stack.api, 'GET', '/api/v1/auth/current-user', { token });
    expect(me.body).toMatchObject({ mfaEnabled: true, mfaRequired: false });

    const refused = await call(stack.api, 'DELETE', `/api/v1/auth/mfa/passkeys/${passkey.id}`, {
      token,
    });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ error: 'conflict' });

    // With a second passkey, the first can go.
    const second = new SoftwareAuthenticator(RP_ID, ORIGIN);
    const options = await registrationOptions(token);
    const added = await call(stack.api, 'POST', '/api/v1/auth/mfa/passkeys', {
      token,
      body: { name: 'Spare key', response: second.register(options.challenge) },
    });
    expect(added.status).toBe(201);
    const removed = await call(stack.api, 'DELETE', `/api/v1/auth/mfa/passkeys/${passkey.id}`, {
      token,
    });
    expect(removed.status).toBe(204);
  });
});
