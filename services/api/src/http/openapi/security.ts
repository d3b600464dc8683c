import type { RouteSecurity } from '@locus/contract';

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
} as const;

type SchemeName = keyof typeof securitySchemes;

const requirements: Record<RouteSecurity, Partial<Record<SchemeName, string[]>>[]> = {
  session: [{ sessionToken: [] }],
  // An empty list overrides the document's default: no credentials.
  public: [],
  callerLink: [{ callerLinkToken: [] }],
};

export function securityRequirement(kind: RouteSecurity) {
  return requirements[kind];
}
