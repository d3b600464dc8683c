import type { AppRoute } from '@ts-rest/core';

/**
 * Who may call a route, declared once in the contract: the API enforces it before it reads the
 * input (`services/api/src/http/contract-routes.ts`) and the OpenAPI document declares it
 * (`securitySchemes`, per operation), so the two cannot drift apart.
 * - `session`: a signed-in user's `Authorization: Bearer <session token>` (the default).
 * - `public`: no credentials (sign-in, registration, health, …); the handler may still check a
 *   credential carried in the input, such as a sign-in challenge.
 * - `callerLink`: the caller's link token in the `token` query parameter (the caller's page).
 * - `partner`: a partner API key (`Authorization: Bearer lk_…`) or an OAuth access token issued
 *   for one, with the route's scope (issue 15).
 */
export type RouteSecurity = 'session' | 'public' | 'callerLink' | 'partner';

/** The scopes a partner key may hold (see `ApiKeyScope`). */
export type PartnerScope = 'locate:write' | 'sessions:read' | 'webhooks:manage';

/** Spread into a route of the contract: `{ method, path, ...publicRoute, … }`. */
export const publicRoute = { metadata: { security: 'public' } } as const;
export const callerLinkRoute = { metadata: { security: 'callerLink' } } as const;
export const partnerRoute = <S extends PartnerScope>(scope: S) =>
  ({ metadata: { security: 'partner', scope } }) as const;

export function routeSecurity(route: Pick<AppRoute, 'metadata'>): RouteSecurity {
  const metadata = route.metadata as { security?: RouteSecurity } | undefined;
  return metadata?.security ?? 'session';
}

/** The scope a `partner` route needs; undefined for every other route. */
export function partnerScope(route: Pick<AppRoute, 'metadata'>): PartnerScope | undefined {
  const metadata = route.metadata as { security?: RouteSecurity; scope?: PartnerScope } | undefined;
  return metadata?.security === 'partner' ? metadata.scope : undefined;
}
