import type { CreatedApiKey } from '@locus/contract';
import { locateSimulatorNumber } from '@locus/examples/locate-simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, signIn, startAuthStack, type AuthStack } from '../auth/support';

// Issue 15, item 4: the example a partner copies (examples/locate-simulator.ts, written only
// against @locus/client) locates a simulator number end to end against a live API.

let stack: AuthStack;
let key: CreatedApiKey;

beforeAll(async () => {
  stack = await startAuthStack();
  const teamAdmin = await signIn(stack.api, 'teamadmin@demo-county.test');
  const team = await stack.database.db
    .selectFrom('teams')
    .select('id')
    .where('team_name', '=', 'Demo County 911')
    .executeTakeFirstOrThrow();
  const created = await call<CreatedApiKey>(
    stack.api,
    'POST',
    `/api/v1/teams/${team.id}/api-keys`,
    {
      token: teamAdmin,
      body: { name: 'example script', scopes: ['locate:write', 'sessions:read'] },
    },
  );
  expect(created.status).toBe(201);
  key = created.body;
});

afterAll(async () => {
  await stack?.close();
});

describe('the partner example', () => {
  it('locates a simulator number, reads its fixes and ends the session with the typed client', async () => {
    const lines: string[] = [];
    const result = await locateSimulatorNumber({
      baseUrl: stack.api.url,
      apiKey: key.secret,
      phoneNumber: '+12025550141',
      log: (line) => lines.push(line),
    });
    expect(result.stage).toBe('not-texted');
    expect(result.fixes).toHaveLength(1);
    expect(lines[0]).toMatch(/^session [0-9a-f-]{36}: not-texted$/);
    expect(lines.some((line) => /^located at -?\d/.test(line))).toBe(true);
    expect(lines.at(-1)).toMatch(/^ended at \d{4}-/);
    const session = await stack.database.db
      .selectFrom('tracking_sessions')
      .select(['status', 'external_reference'])
      .where('id', '=', result.sessionId)
      .executeTakeFirstOrThrow();
    expect(session).toEqual({ status: 'ended', external_reference: 'example-script' });
  });
});
