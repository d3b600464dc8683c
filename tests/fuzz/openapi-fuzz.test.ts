// Issue 18, item 3 (the REST half): every operation of the OpenAPI document the API serves gets
// FUZZ_RUNS generated requests (default 1,000), about half valid by its schemas and half with
// one part broken, sent in-process (`app.inject`) as each role in turn: anonymous, a dispatcher
// and the team admin of the enterprise demo county, the platform admin, a dispatcher and the team
// admin of the basic-level neighbouring county, and the demo county's partner key. Whatever
// arrives: no 5xx, and no answer carries a marker of a team the caller may not see (ids,
// numbers, names, e-mail addresses seeded in both teams).
//
// FUZZ_RUNS=100 npm test -- tests/fuzz   (FUZZ_SEED replays a run; FUZZ_ONLY=<operationId,…>)
import { openApiDocument } from '@locus/api';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEMO_PASSWORD,
  neutralNumbers,
  startFuzzStack,
  type FuzzStack,
  type Role,
  type RoleName,
  type TeamKey,
} from './fixture';
import {
  operationsOf,
  requestArbitrary,
  type FuzzRequest,
  type OpenApiDocument,
  type Operation,
  type PoolContext,
} from './requests';
import type { ValuePool } from './schema-arbitrary';

const runs = Number(process.env.FUZZ_RUNS ?? 1000);
const seed = Number(process.env.FUZZ_SEED ?? 20261129);
const only = process.env.FUZZ_ONLY?.split(',').filter(Boolean);
/** Requests in flight at once: enough to keep Postgres busy on the other core. */
const concurrency = 8;

const document = openApiDocument({
  version: 'fuzz',
  publicUrl: 'http://127.0.0.1',
}) as unknown as OpenApiDocument;
const operations = operationsOf(document).filter(
  (operation) => !only || only.includes(operation.id),
);

/**
 * Operations that are public by design in development only: the dev outbox lists every text
 * and e-mail to anyone (README, "Following the links Locus e-mails"); they are fuzzed for 5xx
 * but their answers are not held to team isolation.
 */
const isolationExempt = new Set(['devOutbox.email', 'devOutbox.sms']);

let stack: FuzzStack;
const started = Date.now();

beforeAll(async () => {
  stack = await startFuzzStack({
    // Limits have their own tests; here they would turn most requests away before a handler.
    AUTH_RATE_LIMIT_MAX: '100000000',
    SIGN_IN_FAILURES_PER_ADDRESS: '100000000',
    SIGN_IN_ACCOUNTS_PER_ADDRESS: '100000000',
    SIGN_IN_FAILURES_PER_SUBNET: '100000000',
    PARTNER_RATE_LIMIT_PER_MINUTE: '100000000',
    SMS_RATE_LIMIT_PER_USER: '100000000',
    SMS_RATE_LIMIT_PER_TEAM: '100000000',
    // A worker runs beside the fuzz (lookups by the simulator, texts and e-mails to the dev
    // outbox); a text request answers "queued" rather than wait for it.
    SMS_WAIT_MS: '100',
    TRANSLATION_PROVIDER: 'none',
    LOG_LEVEL: 'silent',
  });
}, 180_000);

afterAll(async () => {
  await stack?.close();
});

interface Failure {
  operation: string;
  role: RoleName;
  status: number;
  request: FuzzRequest;
  answer: string;
  markers?: string[];
}

const figures = {
  routes: new Set<string>(),
  perRole: {} as Record<string, number>,
  valid: 0,
  invalid: 0,
  byOutcome: { handler: 0, validator: 0, unauthenticated: 0, rateLimited: 0 } as Record<
    string,
    number
  >,
  validReachingHandler: 0,
  statuses: {} as Record<string, number>,
  fiveHundreds: [] as Failure[],
  leaks: [] as Failure[],
};

/**
 * Real values to draw from, for one team (so that a team id, a user id and a session id in one
 * request belong together, and a request about another team's rows is whole) or from all.
 */
function pools(stack: FuzzStack, context: PoolContext): ValuePool {
  const { roles } = stack;
  const teams = context === 'any' ? Object.values(stack.teams) : [stack.teams[context]];
  const both = <T>(pick: (team: FuzzStack['teams']['demo']) => T[]) => teams.flatMap(pick);
  const from = (values: unknown[]) => (values.length > 0 ? fc.constantFrom(...values) : undefined);
  const users = both((team) => team.userIds.slice(0, 8));
  const today = new Date().toISOString().slice(0, 10);
  const table: Record<string, fc.Arbitrary<unknown> | undefined> = {
    teamId: from(both((team) => [team.teamId])),
    userId: from(users),
    toUserId: from(users),
    userIds: from(users),
    sessionId: from(both((team) => team.sessionIds)),
    uuid: from(both((team) => team.sessionIds)),
    transferUuid: from(both((team) => team.sessionIds)),
    connectionRequestUuid: from(both((team) => team.sessionIds)),
    callListId: from(both((team) => team.callListIds)),
    callList: from(both((team) => team.callListIds)),
    listIds: from([
      ...both((team) => team.callListIds),
      both((team) => team.callListIds).join(','),
    ]),
    groupId: from(both((team) => team.overwatchGroupIds)),
    apiKeyId: from(both((team) => team.apiKeyIds)),
    webhookId: from(both((team) => team.webhookIds)),
    psapId: from(stack.psapIds),
    psapPrimaryKey: from(stack.psapIds),
    psapIds: from(stack.psapIds.map(String)),
    phoneNumber: from(neutralNumbers),
    phone: from(neutralNumbers),
    phoneNumbers: from(neutralNumbers),
    newNumbers: from(neutralNumbers),
    // A team's addresses only with that team's ids: an address typed into a team's own rows
    // (an invitation, its audit trail) is the typist's knowledge, not a leak.
    email: from([
      ...(context === 'any' ? [] : both((team) => team.emails.slice(0, 8))),
      'nobody-fuzz@agency.test',
    ]),
    password: from([DEMO_PASSWORD, 'Fuzz-Strong-Passphrase-2026!']),
    currentPassword: from([DEMO_PASSWORD]),
    newPassword: from(['Fuzz-Strong-Passphrase-2026!']),
    from: from(['2026-01-01', today, new Date(Date.now() - 86_400_000).toISOString()]),
    to: from(['2026-12-31', today, new Date().toISOString()]),
    token: from(both((team) => team.callerTokens)),
    teamName: from(['Demo County 911', 'Neighbouring County', 'Locus']),
    domain: from(['demo-county.test', 'fuzz-domain.test']),
    url: from(['https://fuzzhook-new.invalid/in']),
    grant_type: from(['client_credentials']),
    client_id: from(stack.teams.demo.apiKeyIds),
    client_secret: from([roles.partnerKey.token!]),
  };
  // Webhook addresses only ever on `.invalid` (RFC 2606): the worker that runs beside the fuzz
  // may try to deliver to them, and must reach nobody.
  return (name) => {
    const values = table[name];
    return values ? { values, exclusive: name === 'url' } : undefined;
  };
}

/** Each request's role, in turn; partner routes go mostly to the key. */
function roleCycle(operation: Operation): RoleName[] {
  const people: RoleName[] = [
    'anonymous',
    'demoDispatcher',
    'demoAdmin',
    'platformAdmin',
    'neighbourDispatcher',
    'neighbourAdmin',
  ];
  if (operation.security === 'partner')
    return [
      ...people,
      'partnerKey',
      'partnerKey',
      'partnerKey',
      'partnerKey',
      'partnerKey',
      'partnerKey',
    ];
  return [...people, ...people, ...people, 'partnerKey'];
}

/** The teams whose data this request may see: the role's, and the team of any credential sent. */
function visibleTeams(role: Role, requestText: string): Set<TeamKey> | 'all' {
  if (role.team === 'all') return 'all';
  const visible = new Set<TeamKey>(role.team ? [role.team] : []);
  for (const [credential, team] of stack.grants)
    if (requestText.includes(credential)) visible.add(team);
  // The right password with an account's address signs in as that account.
  if (requestText.includes(DEMO_PASSWORD))
    for (const [marker, team] of stack.markers)
      if (marker.includes('@') && requestText.toLowerCase().includes(marker)) visible.add(team);
  return visible;
}

function leakedMarkers(role: Role, request: FuzzRequest, answer: string): string[] {
  const requestText = `${decodeURIComponentSafe(request.url)} ${JSON.stringify(request.headers)} ${request.payload ?? ''}`;
  const visible = visibleTeams(role, requestText);
  if (visible === 'all') return [];
  const lowerAnswer = answer.toLowerCase();
  const lowerRequest = requestText.toLowerCase();
  const found: string[] = [];
  for (const [marker, team] of stack.markers) {
    if (visible.has(team)) continue;
    // The owner's team is checked for anonymous callers; team users may see who the platform admin is.
    if (team === 'locus' && role.team !== null) continue;
    // Echoing what the request sent is no leak.
    if (lowerAnswer.includes(marker) && !lowerRequest.includes(marker))
      found.push(`${team}:${marker}`);
  }
  return found;
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function outcomeOf(status: number, answer: string): keyof typeof figures.byOutcome {
  if (status === 429) return 'rateLimited';
  if (status === 401) return 'unauthenticated';
  if (status === 400 && answer.includes('"validation-failed"')) return 'validator';
  return 'handler';
}

async function send(operation: Operation, role: Role, request: FuzzRequest) {
  const headers = { ...request.headers };
  if (role.token && !('authorization' in headers)) headers.authorization = `Bearer ${role.token}`;
  const answer = await stack.api.app.inject({
    method: request.method as 'GET',
    url: request.url,
    headers,
    ...(request.payload !== undefined ? { payload: request.payload } : {}),
  });
  const text = answer.payload;
  const status = answer.statusCode;
  figures.routes.add(operation.id);
  figures.perRole[role.name] = (figures.perRole[role.name] ?? 0) + 1;
  figures[request.valid ? 'valid' : 'invalid'] += 1;
  const outcome = outcomeOf(status, text);
  figures.byOutcome[outcome] = (figures.byOutcome[outcome] ?? 0) + 1;
  if (request.valid && outcome === 'handler') figures.validReachingHandler += 1;
  const statusClass = `${Math.floor(status / 100)}xx`;
  figures.statuses[statusClass] = (figures.statuses[statusClass] ?? 0) + 1;
  const failure = {
    operation: operation.id,
    role: role.name,
    status,
    request,
    answer: text.slice(0, 500),
  };
  if (status >= 500) figures.fiveHundreds.push(failure);
  if (!isolationExempt.has(operation.id)) {
    const markers = leakedMarkers(role, request, text);
    // Where the first marker sits in the answer, for whoever reads the failure.
    const at = markers.length > 0 ? text.toLowerCase().indexOf(markers[0]!.split(':')[1]!) : -1;
    if (markers.length > 0)
      figures.leaks.push({
        ...failure,
        markers,
        answer: text.slice(Math.max(0, at - 300), at + 200),
      });
  }
  return status;
}

function describeFailure(failure: Failure): string {
  const { request } = failure;
  return `${failure.status} ${failure.operation} as ${failure.role}: ${request.method} ${request.url.slice(0, 200)} ${
    request.payload?.slice(0, 300) ?? ''
  } [${request.mutation}]${failure.markers ? ` leaked ${failure.markers.join(', ')}` : ''} → ${failure.answer.slice(0, 300)}`;
}

describe('every operation of the OpenAPI document, fuzzed as every role', () => {
  it('drives the document the API serves', async () => {
    const served = await stack.api.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(served.statusCode).toBe(200);
    const servedOperations = operationsOf(served.json<OpenApiDocument>());
    expect(servedOperations.map((operation) => operation.id).sort()).toEqual(
      operationsOf(document)
        .map((operation) => operation.id)
        .sort(),
    );
    expect(servedOperations.length).toBeGreaterThan(150);
  });

  it.each(operations.map((operation) => [operation.id, operation] as const))(
    '%s: no 5xx, no other team’s data',
    async (_id, operation) => {
      const before = { fiveHundreds: figures.fiveHundreds.length, leaks: figures.leaks.length };
      const cycle = roleCycle(operation);
      const poolFor = (context: PoolContext) => pools(stack, context);
      const sample = (contexts?: PoolContext[]) =>
        fc.sample(requestArbitrary(operation, poolFor, contexts), {
          numRuns: runs,
          seed: seed + hash(operation.id),
        });
      // The platform admin may join any user to any team; asked to mix teams, it would make the
      // rows that the next requests rightly show. Its requests stay within one team.
      const mixed = sample();
      const withinOneTeam = sample(['demo', 'neighbour', 'locus']);
      for (let start = 0; start < runs; start += concurrency) {
        const indexes = [...Array(Math.min(concurrency, runs - start)).keys()].map(
          (offset) => start + offset,
        );
        const roles = indexes.map((index) => stack.roles[cycle[index % cycle.length]!]);
        const statuses = await Promise.all(
          indexes.map((index, at) => {
            const role = roles[at]!;
            const request = role.team === 'all' ? withinOneTeam[index]! : mixed[index]!;
            return send(operation, role, request);
          }),
        );
        // A request that signed its role out (sign-out, a password change, a role taken away…)
        // is followed by a fresh session, so that the next ones reach the handler again.
        const suspects = new Set(
          roles.filter((role, index) => role.userId && statuses[index] === 401),
        );
        for (const role of suspects) await stack.ensureSignedIn(role);
      }
      await stack.restore();
      const fiveHundreds = figures.fiveHundreds.slice(before.fiveHundreds).map(describeFailure);
      const leaks = figures.leaks.slice(before.leaks).map(describeFailure);
      expect({ fiveHundreds: fiveHundreds.slice(0, 5), leaks: leaks.slice(0, 5) }).toEqual({
        fiveHundreds: [],
        leaks: [],
      });
    },
    600_000,
  );

  it('prints its figures', () => {
    const seconds = (Date.now() - started) / 1000;
    const sent = figures.valid + figures.invalid;
    const lines = [
      `OpenAPI fuzz: ${figures.routes.size} of ${operationsOf(document).length} operations, ${runs} requests each (seed ${seed})`,
      `requests sent: ${sent} (${figures.valid} valid by schema, ${figures.invalid} with a part broken) in ${seconds.toFixed(0)} s (${(sent / seconds).toFixed(0)}/s, setup included)`,
      `per role: ${Object.entries(figures.perRole)
        .map(([role, count]) => `${role} ${count}`)
        .join(', ')}`,
      `answers: ${Object.entries(figures.statuses)
        .sort()
        .map(([status, count]) => `${status} ${count}`)
        .join(', ')}`,
      `reached a handler: ${figures.byOutcome.handler} (valid requests: ${figures.validReachingHandler} of ${figures.valid}); refused by the validator: ${figures.byOutcome.validator}; 401 before the handler: ${figures.byOutcome.unauthenticated}; rate-limited: ${figures.byOutcome.rateLimited}`,
      `5xx: ${figures.fiveHundreds.length}`,
      `cross-team leaks: ${figures.leaks.length}`,
    ];
    console.warn(lines.join('\n'));
    expect(figures.fiveHundreds.length + figures.leaks.length).toBe(0);
  });
});

function hash(text: string): number {
  let value = 0;
  for (const char of text) value = (value * 31 + char.charCodeAt(0)) | 0;
  return Math.abs(value);
}
