import type { ApiKey, ApiKeyList, CreatedApiKey, OAuthToken } from '@locus/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, signIn, startAuthStack, type AuthStack } from '../auth/support';

// Issue 15, items 1 and 2: a team admin of an enterprise-level team creates partner API keys;
// a machine calls the partner API with one (or with an OAuth token issued for it) and sees its
// own team only; revoked, expired or scope-less keys are refused and audited; every answer
// carries its allowance and a key over it gets 429.

let stack: AuthStack;
let teamAdmin: string;
let owner: string;
let dispatcher: string;
let demoCounty: string;
let locusTeam: string;
let neighbours: string;

const RATE_LIMIT = 25;

beforeAll(async () => {
  stack = await startAuthStack({
    worker: false,
    env: { PARTNER_RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT) },
  });
  teamAdmin = await signIn(stack.api, 'teamadmin@demo-county.test');
  owner = await signIn(stack.api, 'owner@locus.test');
  dispatcher = await signIn(stack.api, 'dispatcher@demo-county.test');
  const teams = await stack.database.db.selectFrom('teams').select(['id', 'team_name']).execute();
  const id = (name: string) => teams.find((team) => team.team_name === name)!.id;
  demoCounty = id('Demo County 911');
  locusTeam = id('Locus');
  neighbours = id('Neighbouring County');
});

afterAll(async () => {
  await stack?.close();
});

async function createKey(
  teamId: string,
  body: { name: string; scopes: string[]; expiresAt?: string | null },
  token = teamAdmin,
) {
  return call<CreatedApiKey>(stack.api, 'POST', `/api/v1/teams/${teamId}/api-keys`, {
    token,
    body,
  });
}

const revoke = (id: string) =>
  call<ApiKey>(stack.api, 'POST', `/api/v1/teams/${demoCounty}/api-keys/${id}/revoke`, {
    token: teamAdmin,
  });

const callLists = (credential: string) =>
  call<{ callLists: Array<{ callListName: string; teamId: string; numbers: string[] }> }>(
    stack.api,
    'GET',
    '/api/v1/partner/call-lists',
    { token: credential },
  );

async function refusals(prefix: string): Promise<string[]> {
  const rows = await stack.database.db
    .selectFrom('audit_log')
    .select('detail')
    .where('action', '=', 'api-key.refused')
    .where('subject', '=', prefix)
    .execute();
  return rows.map((row) => (row.detail as { reason: string }).reason);
}

describe('partner API keys', () => {
  it('are created by a team admin, shown once, listed by prefix, and open the partner API to their team only', async () => {
    const created = await createKey(demoCounty, {
      name: 'CAD integration',
      scopes: ['sessions:read', 'locate:write'],
    });
    expect(created.status).toBe(201);
    const { key, secret } = created.body;
    expect(secret).toMatch(/^lk_[A-Za-z0-9]{40}$/);
    expect(key).toMatchObject({
      name: 'CAD integration',
      teamId: demoCounty,
      prefix: secret.slice(0, 11),
      scopes: ['sessions:read', 'locate:write'],
      status: 'active',
      lastUsedAt: null,
      createdBy: 'Terry Admin',
    });

    // The list never carries the secret, only its prefix; nor does the database.
    const listed = await call<ApiKeyList>(
      stack.api,
      'GET',
      `/api/v1/teams/${demoCounty}/api-keys`,
      { token: teamAdmin },
    );
    expect(listed.status).toBe(200);
    expect(listed.body.keys.map((each) => each.id)).toContain(key.id);
    expect(JSON.stringify(listed.body)).not.toContain(secret.slice(11));
    const stored = await stack.database.db
      .selectFrom('partner_api_keys')
      .selectAll()
      .where('id', '=', key.id)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(stored)).not.toContain(secret.slice(11));

    const answer = await callLists(secret);
    expect(answer.status).toBe(200);
    expect(answer.body.callLists.map((list) => list.callListName)).toEqual([
      'Coast patrol boats',
      'Search and Rescue volunteers',
    ]);
    expect(answer.body.callLists.every((list) => list.teamId === demoCounty)).toBe(true);
    expect(answer.body.callLists[1]!.numbers).toEqual([
      '+12025550170',
      '+12025550171',
      '+12025550172',
    ]);
    // Allowance headers on every answer (IETF RateLimit draft).
    expect(answer.headers.get('ratelimit-limit')).toBe(String(RATE_LIMIT));
    expect(Number(answer.headers.get('ratelimit-remaining'))).toBe(RATE_LIMIT - 1);
    expect(Number(answer.headers.get('ratelimit-reset'))).toBeGreaterThan(0);

    const after = await call<ApiKeyList>(stack.api, 'GET', `/api/v1/teams/${demoCounty}/api-keys`, {
      token: teamAdmin,
    });
    expect(after.body.keys.find((each) => each.id === key.id)?.lastUsedAt).not.toBeNull();
    const audited = await stack.database.db
      .selectFrom('audit_log')
      .select(['action', 'team_id'])
      .where('subject', '=', key.prefix)
      .execute();
    expect(audited).toEqual([{ action: 'api-key.created', team_id: demoCounty }]);
  });

  it("of another team never see this team's data", async () => {
    const created = await createKey(
      locusTeam,
      { name: 'Locus own', scopes: ['sessions:read'] },
      owner,
    );
    expect(created.status).toBe(201);
    const answer = await callLists(created.body.secret);
    expect(answer.status).toBe(200);
    expect(answer.body.callLists).toEqual([]);
    // Nor may a team admin manage another team's keys: the team is not confirmed to exist.
    const foreign = await call(stack.api, 'GET', `/api/v1/teams/${locusTeam}/api-keys`, {
      token: teamAdmin,
    });
    expect(foreign.status).toBe(404);
    const revokeForeign = await call(
      stack.api,
      'POST',
      `/api/v1/teams/${demoCounty}/api-keys/${created.body.key.id}/revoke`,
      { token: teamAdmin },
    );
    expect(revokeForeign.status).toBe(404);
  });

  it('are refused to dispatchers, to teams below enterprise, and to session tokens on partner routes', async () => {
    const byDispatcher = await createKey(
      demoCounty,
      { name: 'x', scopes: ['sessions:read'] },
      dispatcher,
    );
    expect(byDispatcher.status).toBe(403);
    const neighbourAdmin = await signIn(stack.api, 'teamadmin@neighbour-county.test');
    const basic = await createKey(
      neighbours,
      { name: 'x', scopes: ['sessions:read'] },
      neighbourAdmin,
    );
    expect(basic.status).toBe(403);
    expect(basic.body).toMatchObject({ error: 'forbidden' });
    // A signed-in user's token is not a partner credential.
    const withSession = await callLists(teamAdmin);
    expect(withSession.status).toBe(401);
    const anonymous = await call(stack.api, 'GET', '/api/v1/partner/call-lists');
    expect(anonymous).toMatchObject({ status: 401, body: { error: 'unauthorized' } });
  });

  it('reject bad input with the documented shape, writing nothing', async () => {
    const before = await stack.database.db
      .selectFrom('partner_api_keys')
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .executeTakeFirstOrThrow();
    for (const body of [
      { name: '', scopes: ['sessions:read'] },
      { name: 'x', scopes: [] },
      { name: 'x', scopes: ['admin:everything'] },
      { name: 'x', scopes: ['sessions:read', 'sessions:read'] },
      { name: 'x', scopes: ['sessions:read'], expiresAt: '2020-01-01T00:00:00Z' },
      { name: 'x', scopes: ['sessions:read'], extra: true },
    ]) {
      const answer = await createKey(demoCounty, body as { name: string; scopes: string[] });
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body).toMatchObject({ error: 'validation-failed' });
    }
    const after = await stack.database.db
      .selectFrom('partner_api_keys')
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .executeTakeFirstOrThrow();
    expect(after.count).toBe(before.count);
  });

  it('stop working the moment they are revoked, and say why when expired or without the scope', async () => {
    const { key, secret } = (
      await createKey(demoCounty, { name: 'To revoke', scopes: ['sessions:read'] })
    ).body;
    expect((await callLists(secret)).status).toBe(200);
    const revoked = await revoke(key.id);
    expect(revoked.status).toBe(200);
    expect(revoked.body.status).toBe('revoked');
    const refused = await callLists(secret);
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({ error: 'unauthorized' });
    expect(JSON.stringify(refused.body)).toContain('revoked');

    const writer = await createKey(demoCounty, { name: 'Writer only', scopes: ['locate:write'] });
    const noScope = await callLists(writer.body.secret);
    expect(noScope.status).toBe(403);
    expect(JSON.stringify(noScope.body)).toContain('sessions:read');

    const soon = new Date(Date.now() + 60_000).toISOString();
    const expiring = await createKey(demoCounty, {
      name: 'Expiring',
      scopes: ['sessions:read'],
      expiresAt: soon,
    });
    expect(expiring.status).toBe(201);
    await stack.database.db
      .updateTable('partner_api_keys')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', expiring.body.key.id)
      .execute();
    const expired = await callLists(expiring.body.secret);
    expect(expired.status).toBe(401);
    expect(JSON.stringify(expired.body)).toContain('expired');

    expect(refused.headers.get('www-authenticate')).toBe('Bearer realm="locus"');
    // Revoked keys and missing scopes are on the team's trail; an expired key is routine.
    expect(await refusals(key.prefix)).toEqual(['This API key has been revoked.']);
    expect(await refusals(writer.body.key.prefix)).toHaveLength(1);
    expect(await refusals(expiring.body.key.prefix)).toEqual([]);
  });

  it('are limited per minute: over it, 429 with Retry-After, and the allowance headers', async () => {
    const { secret } = (await createKey(demoCounty, { name: 'Busy', scopes: ['sessions:read'] }))
      .body;
    const statuses: number[] = [];
    let last: Awaited<ReturnType<typeof callLists>> | undefined;
    for (let i = 0; i < RATE_LIMIT + 2; i += 1) {
      last = await callLists(secret);
      statuses.push(last.status);
    }
    expect(statuses.filter((status) => status === 200)).toHaveLength(RATE_LIMIT);
    expect(statuses.slice(RATE_LIMIT)).toEqual([429, 429]);
    expect(last!.body).toMatchObject({ error: 'rate-limited' });
    expect(Number(last!.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(last!.headers.get('ratelimit-remaining')).toBe('0');
  });
});

describe('a team that loses the enterprise level', () => {
  it('stops its keys, can still revoke them, and cannot create new ones', async () => {
    const { key, secret } = (
      await createKey(demoCounty, { name: 'Leaked', scopes: ['sessions:read'] })
    ).body;
    const setLevels = (levels: string[]) =>
      stack.database.db
        .updateTable('teams')
        .set({ permission_levels: levels })
        .where('id', '=', demoCounty)
        .execute();
    await setLevels(['premiere']);
    try {
      expect((await callLists(secret)).status).toBe(403);
      const created = await createKey(demoCounty, { name: 'New', scopes: ['sessions:read'] });
      expect(created.status).toBe(403);
      const revoked = await revoke(key.id);
      expect(revoked.status).toBe(200);
      expect(revoked.body.status).toBe('revoked');
    } finally {
      await setLevels(['premiere', 'enterprise']);
    }
    // The level back: the revoked key stays revoked.
    expect((await callLists(secret)).status).toBe(401);
  });
});

describe('the OAuth client-credentials grant', () => {
  const form = (fields: Record<string, string>, headers: Record<string, string> = {}) =>
    fetch(`${stack.api.url}/api/v1/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body: new URLSearchParams(fields).toString(),
    });

  it('issues a token that works like the key, with the scopes asked for, and stops with the key', async () => {
    const { key, secret } = (
      await createKey(demoCounty, { name: 'OAuth', scopes: ['sessions:read', 'locate:write'] })
    ).body;
    const response = await form({
      grant_type: 'client_credentials',
      client_id: key.id,
      client_secret: secret,
      scope: 'sessions:read',
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const token = (await response.json()) as OAuthToken;
    expect(token).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: 'sessions:read' });
    const lists = await callLists(token.access_token);
    expect(lists.status).toBe(200);
    expect(lists.body.callLists).toHaveLength(2);

    // HTTP Basic client authentication, as RFC 6749 prefers.
    const basic = await form(
      { grant_type: 'client_credentials', scope: 'locate:write' },
      { authorization: `Basic ${Buffer.from(`${key.id}:${secret}`).toString('base64')}` },
    );
    expect(basic.status).toBe(200);
    const writeOnly = (await basic.json()) as OAuthToken;
    expect((await callLists(writeOnly.access_token)).status).toBe(403);

    await revoke(key.id);
    expect((await callLists(token.access_token)).status).toBe(401);
    const again = await form({
      grant_type: 'client_credentials',
      client_id: key.id,
      client_secret: secret,
    });
    expect(again.status).toBe(401);
    expect(await again.json()).toMatchObject({ error: 'invalid_client' });
  });

  it("never outlives the key, and counts against the key's allowance", async () => {
    const { key, secret } = (
      await createKey(demoCounty, {
        name: 'Short-lived',
        scopes: ['sessions:read'],
        expiresAt: new Date(Date.now() + 600_000).toISOString(),
      })
    ).body;
    const fields = { grant_type: 'client_credentials', client_id: key.id, client_secret: secret };
    const first = await form(fields);
    expect(first.status).toBe(200);
    const { expires_in } = (await first.json()) as OAuthToken;
    expect(expires_in).toBeGreaterThan(590);
    expect(expires_in).toBeLessThanOrEqual(600);
    // That token runs out; the next one issued sweeps it away.
    await stack.database.db
      .updateTable('partner_access_tokens')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('key_id', '=', key.id)
      .execute();
    const statuses = [first.status];
    for (let i = 1; i < RATE_LIMIT + 1; i += 1) statuses.push((await form(fields)).status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(RATE_LIMIT);
    const over = await form(fields);
    expect(over.status).toBe(429);
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await over.json()).toMatchObject({ error: 'rate-limited' });
    const stored = await stack.database.db
      .selectFrom('partner_access_tokens')
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .where('key_id', '=', key.id)
      .where('expires_at', '<', new Date())
      .executeTakeFirstOrThrow();
    expect(Number(stored.count)).toBe(0);
  });

  it('answers RFC 6749 errors for a wrong secret, grant or scope', async () => {
    const { key, secret } = (
      await createKey(demoCounty, { name: 'OAuth errors', scopes: ['sessions:read'] })
    ).body;
    const wrongSecret = await form({
      grant_type: 'client_credentials',
      client_id: key.id,
      client_secret: `lk_${'A'.repeat(40)}`,
    });
    expect(wrongSecret.status).toBe(401);
    expect(wrongSecret.headers.get('www-authenticate')).toBe('Basic realm="locus"');
    expect(await wrongSecret.json()).toMatchObject({ error: 'invalid_client' });
    // Both ways of authenticating at once is a malformed request (RFC 6749 §2.3).
    const both = await form(
      { grant_type: 'client_credentials', client_id: key.id, client_secret: secret },
      { authorization: `Basic ${Buffer.from(`${key.id}:${secret}`).toString('base64')}` },
    );
    expect(both.status).toBe(400);
    expect(await both.json()).toMatchObject({ error: 'invalid_request' });
    // A field that is not a string: still RFC 6749's shape, with our message beside it.
    const json = await call(stack.api, 'POST', '/api/v1/oauth/token', {
      body: { grant_type: 'client_credentials', client_id: [key.id], client_secret: secret },
    });
    expect(json.status).toBe(400);
    expect(json.body).toMatchObject({ error: 'invalid_request' });
    expect(typeof (json.body as { message?: unknown }).message).toBe('string');
    const password = await form({
      grant_type: 'password',
      client_id: key.id,
      client_secret: secret,
    });
    expect(password.status).toBe(400);
    expect(await password.json()).toMatchObject({ error: 'unsupported_grant_type' });
    const tooMuch = await form({
      grant_type: 'client_credentials',
      client_id: key.id,
      client_secret: secret,
      scope: 'sessions:read webhooks:manage',
    });
    expect(tooMuch.status).toBe(400);
    expect(await tooMuch.json()).toMatchObject({ error: 'invalid_scope' });
    const missing = await form({ grant_type: 'client_credentials' });
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({ error: 'invalid_request' });
    const tokens = await stack.database.db
      .selectFrom('partner_access_tokens')
      .select('key_id')
      .where('key_id', '=', key.id)
      .execute();
    expect(tokens).toEqual([]);
  });
});
