import { contract, routeSecurity, type RouteSecurity } from '@locus/contract';
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  DEMO_PASSWORD,
  registration,
  startAuthStack,
  uniqueEmail,
  type AuthStack,
} from '../auth/support';
import { contractRoutes } from '../support/contract-routes';

// Every route of the contract declares who may call it (packages/contract/src/route-security.ts)
// and the API enforces it before it reads the input (services/api/src/http/contract-routes.ts):
// a `session` route answers an anonymous caller 401 `unauthorized`, whatever it sent, and never
// a 400 that would teach it the route's validation rules; a `public` or `callerLink` route
// serves a valid request without any sign-in.

let stack: AuthStack;

beforeAll(async () => {
  stack = await startAuthStack({ worker: false });
});

afterAll(async () => {
  await stack?.close();
});

interface Route {
  key: string;
  method: string;
  path: string;
  security: RouteSecurity;
}

const routes: Route[] = contractRoutes(contract).map(([key, route]) => ({
  key,
  method: route.method,
  path: route.path,
  security: routeSecurity(route),
}));
const ofKind = (security: RouteSecurity) => routes.filter((route) => route.security === security);

/** A well-formed code or token nobody was ever given: 256 random bits, base64url. */
const unknownCode = () => randomBytes(32).toString('base64url');

interface ValidInput {
  /** The path with its parameters filled in and any query string. */
  path: string;
  body?: unknown;
}

/**
 * A request to each `public` route that its contract accepts, keyed by the route's path: the
 * answer may be a refusal of the credential it carries (401 `invalid-credentials`, 400
 * `invalid-code`, …) but never 401 `unauthorized` or 400 `validation-failed`. Each is built
 * afresh per request (new addresses), so sending one twice changes nothing the other sees.
 */
const publicInputs: Record<string, () => ValidInput> = {
  '/api/v1/health': () => ({ path: '/api/v1/health' }),
  // Well-formed, for a key that does not exist: RFC 6749's 401 invalid_client, not ours.
  '/api/v1/oauth/token': () => ({
    path: '/api/v1/oauth/token',
    body: {
      grant_type: 'client_credentials',
      client_id: '3f1e2d4c-5b6a-4789-9abc-def012345678',
      client_secret: `lk_${'A'.repeat(40)}`,
    },
  }),
  // Issue 15: the keys evidence files are checked against, for anyone holding one.
  '/api/v1/evidence/signing-keys': () => ({ path: '/api/v1/evidence/signing-keys' }),
  '/api/v1/health/ready': () => ({ path: '/api/v1/health/ready' }),
  '/api/v1/health/live': () => ({ path: '/api/v1/health/live' }),
  '/api/v1/auth/sign-in': () => ({
    path: '/api/v1/auth/sign-in',
    body: { email: uniqueEmail('nobody'), password: 'not the password' },
  }),
  '/api/v1/auth/register': () => ({
    path: '/api/v1/auth/register',
    body: registration(uniqueEmail('route-security')),
  }),
  '/api/v1/auth/accept-invitation': () => ({
    path: '/api/v1/auth/accept-invitation',
    body: { invitationCode: unknownCode() },
  }),
  '/api/v1/auth/resend-email-confirmation': () => ({
    path: '/api/v1/auth/resend-email-confirmation',
    body: { email: uniqueEmail('nobody') },
  }),
  '/api/v1/auth/confirm-email': () => ({
    path: '/api/v1/auth/confirm-email',
    body: { verificationCode: unknownCode() },
  }),
  '/api/v1/auth/forgot-password': () => ({
    path: '/api/v1/auth/forgot-password',
    body: { email: uniqueEmail('nobody') },
  }),
  '/api/v1/auth/update-password': () => ({
    path: '/api/v1/auth/update-password',
    body: { resetCode: unknownCode(), password: 'correct horse battery' },
  }),
  '/api/v1/auth/demo-request': () => ({
    path: '/api/v1/auth/demo-request',
    body: {
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: uniqueEmail('demo'),
      phoneNumber: '+12025550123',
      companyName: 'Analytical Engines',
    },
  }),
  '/api/v1/auth/sign-in/mfa': () => ({
    path: '/api/v1/auth/sign-in/mfa',
    body: { challenge: unknownCode(), method: 'totp', code: '123456' },
  }),
  '/api/v1/auth/sign-in/mfa/passkey/options': () => ({
    path: '/api/v1/auth/sign-in/mfa/passkey/options',
    body: { challenge: unknownCode() },
  }),
  '/api/v1/auth/sign-in/mfa/passkey': () => ({
    path: '/api/v1/auth/sign-in/mfa/passkey',
    body: {
      challenge: unknownCode(),
      response: {
        id: 'AAAA',
        rawId: 'AAAA',
        type: 'public-key',
        response: { clientDataJSON: 'AAAA', authenticatorData: 'AAAA', signature: 'AAAA' },
      },
    },
  }),
  '/api/v1/psap/search': () => ({ path: '/api/v1/psap/search', body: { searchTerm: 'County' } }),
  '/api/v1/psap/:id': () => ({ path: '/api/v1/psap/1' }),
  '/api/v1/dev/outbox/email': () => ({ path: '/api/v1/dev/outbox/email?to=nobody%40agency.test' }),
  '/api/v1/dev/outbox/sms': () => ({ path: '/api/v1/dev/outbox/sms?to=%2B12025550123' }),
  '/api/v1/dev/outbox/sms/inbound': () => ({
    path: '/api/v1/dev/outbox/sms/inbound',
    body: { from: '+12025550123', body: 'HELP' },
  }),
  '/api/v1/config': () => ({ path: '/api/v1/config' }),
  // A signature that does not verify: 403 `forbidden` (issue 19's signed media URLs).
  '/api/v1/media/photos/:id': () => ({
    path: `/api/v1/media/photos/${randomUUID()}?expires=4102444800&signature=${unknownCode()}`,
  }),
  '/api/v1/media/recordings/:id': () => ({
    path: `/api/v1/media/recordings/${randomUUID()}?expires=4102444800&signature=${unknownCode()}`,
  }),
};

/** The same for each `callerLink` route: the caller's link token travels in the query string. */
const callerLinkInputs: Record<string, () => ValidInput> = {
  '/api/v1/caller/link': () => ({ path: `/api/v1/caller/link?token=${unknownCode()}` }),
  // The body is raw bytes in practice; a link that opens nothing is 403 before it is read.
  '/api/v1/caller/media': () => ({
    path: `/api/v1/caller/media?token=${unknownCode()}&takenAt=2026-11-29T12:00:00Z`,
    body: {},
  }),
};

/** Credentials that sign nobody in; none of them may get past a `session` route's door. */
const badCredentials: [string, Record<string, string>][] = [
  ['no authorization header', {}],
  ['a malformed bearer token', { authorization: 'Bearer not-a-token' }],
  ['an unknown bearer token', { authorization: `Bearer ${unknownCode()}` }],
  ['another scheme', { authorization: `Basic ${Buffer.from('a:b').toString('base64')}` }],
];

/** Bodies a `session` route would refuse as 400 `validation-failed` if it read them first. */
const garbageBodies: unknown[] = [{}, { id: '\u0000', email: 'not an address' }, ['garbage'], 'x'];

function fillPath(path: string, segment: string): string {
  return path.replace(/:[A-Za-z]+/g, segment);
}

function hasBody(method: string): boolean {
  return method !== 'GET' && method !== 'DELETE';
}

describe('the contract declares who may call each route', () => {
  it('has routes of every kind, and a valid input for every public and caller-link route', () => {
    expect(ofKind('session').length).toBeGreaterThan(40);
    expect(ofKind('public').length).toBeGreaterThan(0);
    expect(ofKind('callerLink').length).toBeGreaterThan(0);
    expect(
      ofKind('public')
        .map((route) => route.path)
        .sort(),
    ).toEqual(Object.keys(publicInputs).sort());
    expect(ofKind('public')).toHaveLength(Object.keys(publicInputs).length);
    expect(
      ofKind('callerLink')
        .map((route) => route.path)
        .sort(),
    ).toEqual(Object.keys(callerLinkInputs).sort());
  });
});

describe('a partner route, called without a partner key', () => {
  it.each(ofKind('partner').map((route) => [`${route.method} ${route.path}`, route] as const))(
    '%s answers 401 unauthorized, to a session token too',
    async (_name, route) => {
      const session = await call<{ token: string }>(stack.api, 'POST', '/api/v1/auth/sign-in', {
        body: { email: 'dispatcher@demo-county.test', password: DEMO_PASSWORD },
      });
      const credentials: Record<string, string>[] = [
        {},
        { authorization: `Bearer ${session.body.token}` },
      ];
      for (const headers of credentials) {
        const answer = await call(stack.api, route.method, fillPath(route.path, '1'), {
          headers,
        });
        expect(answer.status).toBe(401);
        expect(answer.body).toMatchObject({ error: 'unauthorized' });
      }
    },
  );
});

describe('a session route, called without a valid session', () => {
  it.each(ofKind('session').map((route) => [`${route.method} ${route.path}`, route] as const))(
    '%s answers 401 unauthorized before it reads the input',
    async (_name, route) => {
      const failures: string[] = [];
      const paths = [fillPath(route.path, '1'), `${fillPath(route.path, '1')}?id=%00&to=x`];
      for (const [credentials, headers] of badCredentials) {
        for (const path of paths) {
          for (const body of hasBody(route.method) ? garbageBodies : [undefined]) {
            const answer = await call<{ error?: unknown } | undefined>(
              stack.api,
              route.method,
              path,
              {
                body,
                headers,
              },
            );
            if (answer.status !== 401 || answer.body?.error !== 'unauthorized')
              failures.push(
                `${credentials}, ${path} ${JSON.stringify(body)}: ${answer.status} ${JSON.stringify(answer.body)}`,
              );
          }
        }
      }
      expect(failures).toEqual([]);
    },
  );
});

describe('a public or caller-link route, called without a session', () => {
  const open = [...ofKind('public'), ...ofKind('callerLink')];
  it.each(open.map((route) => [`${route.method} ${route.path}`, route] as const))(
    '%s serves a valid request',
    async (_name, route) => {
      const input = (route.security === 'public' ? publicInputs : callerLinkInputs)[route.path];
      expect(input, `no valid input for ${route.path} in the table`).toBeDefined();
      if (!input) return;
      // A stale or bogus token sent along is not an error on a route that needs none.
      const credentials: Record<string, string>[] = [
        {},
        { authorization: `Bearer ${unknownCode()}` },
      ];
      for (const headers of credentials) {
        const { path, body } = input();
        const answer = await call<{ error?: unknown } | undefined>(stack.api, route.method, path, {
          body,
          headers,
        });
        const error =
          typeof answer.body === 'object' && answer.body !== null && 'error' in answer.body
            ? answer.body.error
            : undefined;
        const where = `${route.method} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`;
        expect(answer.status === 401 && error === 'unauthorized', where).toBe(false);
        expect(answer.status === 400 && error === 'validation-failed', where).toBe(false);
        expect(answer.status, where).toBeLessThan(500);
      }
    },
  );
});
