import { apiKeyScopeDescriptions, type PartnerScope, type RouteSecurity } from '@locus/contract';

/**
 * The credentials the API accepts, as OpenAPI security schemes. Each route's kind comes from the
 * contract (`routeSecurity`), the same value the API enforces before it reads the input.
 */
export const securitySchemes = {
  sessionToken: {
    type: 'http',
    scheme: 'bearer',
    description:
      'The `token` that `POST /api/v1/auth/sign-in` (or its second step) answers, sent as ' +
      "`Authorization: Bearer <token>`. It expires after the team's idle timeout; a request " +
      'with an expired one answers 401 `session-expired`.',
  },
  callerLinkToken: {
    type: 'apiKey',
    in: 'query',
    name: 'token',
    description:
      'The token in the link texted to a caller; it works until the dispatcher ends the session.',
  },
  partnerKey: {
    type: 'http',
    scheme: 'bearer',
    description:
      'A partner API key (`lk_…`) that a team admin of an enterprise-level team created on the ' +
      "API page, sent as `Authorization: Bearer <key>`. It sees its own team's data only. A " +
      'revoked or expired key answers 401 `unauthorized`; a key without the route’s scope 403 ' +
      '`forbidden`.',
  },
  partnerOAuth: {
    type: 'oauth2',
    description:
      "OAuth 2.0 client credentials for a partner API key: the key's id is `client_id` and the " +
      'key is `client_secret`. The access token works like the key, with the scopes asked for.',
    flows: {
      clientCredentials: {
        tokenUrl: '/api/v1/oauth/token',
        scopes: apiKeyScopeDescriptions,
      },
    },
  },
} as const;

type SchemeName = keyof typeof securitySchemes;

type Requirement = Partial<Record<SchemeName, string[]>>[];

const requirements: Record<Exclude<RouteSecurity, 'partner'>, Requirement> = {
  session: [{ sessionToken: [] }],
  // An empty list overrides the document's default: no credentials.
  public: [],
  callerLink: [{ callerLinkToken: [] }],
};

/** A route's requirement; a partner route's names its scope, for a key or an OAuth token. */
export function securityRequirement(kind: RouteSecurity, scope?: PartnerScope): Requirement {
  if (kind === 'partner') return [{ partnerKey: [scope ?? ''] }, { partnerOAuth: [scope ?? ''] }];
  return requirements[kind];
}
