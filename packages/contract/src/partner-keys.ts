import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { ErrorBody } from './errors';
import { publicRoute } from './route-security';

/**
 * Partner access (issue 15): a machine calls Locus with an API key a team admin of an
 * enterprise-level team created on /admin/admin-api, or with an OAuth 2.0 access token obtained
 * for such a key (client-credentials grant). A key belongs to one team and sees that team only.
 */
const c = initContract();
const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 429: ErrorBody };

/** What a key may do. A partner route names the one it needs; 403 `forbidden` without it. */
export const apiKeyScopes = ['locate:write', 'sessions:read', 'webhooks:manage'] as const;
export const ApiKeyScope = z.enum(apiKeyScopes);
export type ApiKeyScope = z.infer<typeof ApiKeyScope>;

/** What each scope lets a partner's system do: on the API page and in the OpenAPI document. */
export const apiKeyScopeDescriptions: Record<ApiKeyScope, string> = {
  'locate:write': 'Start and end locates for a phone number.',
  'sessions:read': "Read the team's sessions, their locations and its call lists.",
  'webhooks:manage': "Register and change the team's webhook endpoints.",
};

export const apiKeyLimits = {
  nameMaxLength: 80,
  /** Live (not revoked, not expired) keys per team. */
  keysPerTeam: 20,
  /** How long an OAuth access token lasts. */
  accessTokenSeconds: 3600,
} as const;

/**
 * The shape of a key, `lk_` and 40 letters and digits. Its first 11 characters (`prefix`) are
 * shown in lists so that a team can tell its keys apart; the rest is never shown again.
 */
export const apiKeyPattern = /^lk_[A-Za-z0-9]{40}$/;
export const apiKeyPrefixLength = 11;

export const ApiKey = z.object({
  id: z.string().uuid(),
  teamId: z.string().uuid(),
  name: z.string(),
  /** The key's first characters, e.g. `lk_4fK9x2Qa`: enough to recognise it, not to use it. */
  prefix: z.string(),
  scopes: z.array(ApiKeyScope),
  createdAt: z.string().datetime(),
  createdBy: z.string().nullable(),
  /** When it stops working on its own, or null for never. */
  expiresAt: z.string().datetime().nullable(),
  /** The last request made with it (or with a token issued for it), to the minute; null if never. */
  lastUsedAt: z.string().datetime().nullable(),
  revokedAt: z.string().datetime().nullable(),
  status: z.enum(['active', 'expired', 'revoked']),
});
export type ApiKey = z.infer<typeof ApiKey>;

export const ApiKeyList = z.object({ keys: z.array(ApiKey) });
export type ApiKeyList = z.infer<typeof ApiKeyList>;

export const CreateApiKeyInput = z
  .object({
    name: z.string().trim().min(1).max(apiKeyLimits.nameMaxLength),
    scopes: z
      .array(ApiKeyScope)
      .min(1, 'Choose at least one scope')
      .refine((scopes) => new Set(scopes).size === scopes.length, 'Each scope once'),
    /** Optional; must be in the future. */
    expiresAt: z.string().datetime({ offset: true }).nullable().default(null),
  })
  .strict();
export type CreateApiKeyInput = z.input<typeof CreateApiKeyInput>;

/** The new key with its secret: the only answer that ever carries it. */
export const CreatedApiKey = z.object({ key: ApiKey, secret: z.string().regex(apiKeyPattern) });
export type CreatedApiKey = z.infer<typeof CreatedApiKey>;

const TeamParams = z.object({ teamId: z.string().uuid() });
const KeyParams = z.object({ teamId: z.string().uuid(), id: z.string().uuid() });

const ACCESS =
  'Team admins (and admins) of the team, which must be active and have the enterprise level; ' +
  'platform admins for any team. A dispatcher, or a team below enterprise, is 403 `forbidden`; ' +
  'a team the user is not on is 404 `not-found`.';

export const apiKeysContract = c.router(
  {
    list: {
      method: 'GET',
      path: '/api/v1/teams/:teamId/api-keys',
      summary: "A team's partner API keys, newest first, without their secrets",
      description: `Revoked and expired keys are listed too, with their status. ${ACCESS}`,
      pathParams: TeamParams,
      responses: { 200: ApiKeyList, ...errors },
    },
    create: {
      method: 'POST',
      path: '/api/v1/teams/:teamId/api-keys',
      summary: 'Create a partner API key; its secret is in this answer and nowhere else',
      description:
        'Store `secret` at once: Locus keeps only its hash and cannot show it again. A team has ' +
        `at most ${apiKeyLimits.keysPerTeam} live keys (409 \`conflict\` beyond). An expiry in ` +
        `the past is 400 \`validation-failed\`. Audited. ${ACCESS}`,
      pathParams: TeamParams,
      body: CreateApiKeyInput,
      responses: { 201: CreatedApiKey, 409: ErrorBody, ...errors },
    },
    revoke: {
      method: 'POST',
      path: '/api/v1/teams/:teamId/api-keys/:id/revoke',
      summary: 'Revoke a partner API key, at once',
      description:
        'The next request with the key, or with any OAuth token issued for it, is 401 ' +
        '`unauthorized`. Revoking a revoked key changes nothing and answers it as it is. ' +
        `Audited. ${ACCESS}`,
      pathParams: KeyParams,
      body: c.noBody(),
      responses: { 200: ApiKey, ...errors },
    },
  },
  { strictStatusCodes: true },
);

/** RFC 6749 §4.4: the client-credentials grant. `client_id` is the key's id, the secret the key. */
export const OAuthTokenRequest = z
  .object({
    grant_type: z.string(),
    client_id: z.string().max(200).optional(),
    client_secret: z.string().max(200).optional(),
    /** Space-separated scopes, each one the key has; all of the key's when absent. */
    scope: z.string().max(200).optional(),
  })
  .passthrough();
export type OAuthTokenRequest = z.infer<typeof OAuthTokenRequest>;

export const OAuthToken = z.object({
  access_token: z.string(),
  token_type: z.literal('Bearer'),
  expires_in: z.number().int(),
  scope: z.string(),
});
export type OAuthToken = z.infer<typeof OAuthToken>;

/**
 * RFC 6749 §5.2's error, with this API's `{ error, message }` fields beside it: `error` is the
 * OAuth code, which OAuth client libraries read.
 */
export const OAuthError = z.object({
  error: z.enum(['invalid_request', 'invalid_client', 'unsupported_grant_type', 'invalid_scope']),
  error_description: z.string(),
  message: z.string(),
});
export type OAuthError = z.infer<typeof OAuthError>;

export const oauthContract = c.router({
  token: {
    method: 'POST',
    path: '/api/v1/oauth/token',
    ...publicRoute,
    contentType: 'application/x-www-form-urlencoded',
    summary: 'OAuth 2.0 client-credentials grant: an access token for a partner API key',
    description:
      'Form-encoded as RFC 6749 asks (JSON is accepted too): `grant_type=client_credentials`, ' +
      'the key’s id as `client_id` and the key itself as `client_secret`, in the body or as HTTP ' +
      'Basic credentials. The token works like the key on every partner route for ' +
      `${apiKeyLimits.accessTokenSeconds} s, with the scopes asked for (all of the key’s by ` +
      'default), and stops with the key. Errors follow RFC 6749 §5.2: 400 `invalid_request`, ' +
      '`unsupported_grant_type` or `invalid_scope`, 401 `invalid_client`.',
    body: OAuthTokenRequest,
    responses: { 200: OAuthToken, 400: OAuthError, 401: OAuthError, 429: ErrorBody },
  },
});
