import { createBrowserRouter } from 'react-router';
import { setSessionRejectedHandler } from './api-error';
import { paths } from './guard';
import { preloadOf } from './lazy-page';
import { logout } from './logout';
import type { RouteHandle } from './route-meta';
import { Root } from './Root';
import { appRoutes } from './routes';

export const router = createBrowserRouter([
  {
    element: <Root />,
    children: appRoutes.map(({ path, meta, element }) => ({
      path,
      element,
      handle: { meta, preload: preloadOf(element) } satisfies RouteHandle,
    })),
  },
]);

// SPEC.md §4, §8: a 401 with session-expired, or without a valid token, logs out and goes to the site.
setSessionRejectedHandler(() => {
  logout();
  void router.navigate(paths.site, { replace: true });
});
