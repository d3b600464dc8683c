import { isAppRoute, type AppRoute, type AppRouter } from '@ts-rest/core';

/**
 * Every route of a ts-rest contract, with its `<router>.<route>` name (the OpenAPI operationId).
 * Routers nest; a route is the entry ts-rest recognises as one. The tests that must cover the
 * whole contract (fuzzing, route security, the API description) enumerate it here.
 */
export function contractRoutes(router: AppRouter, prefix = ''): [string, AppRoute][] {
  return Object.entries(router).flatMap(([key, entry]) =>
    isAppRoute(entry)
      ? [[`${prefix}${key}`, entry] as [string, AppRoute]]
      : contractRoutes(entry as AppRouter, `${prefix}${key}.`),
  );
}
