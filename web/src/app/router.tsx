import { createBrowserRouter } from 'react-router';
import { setSessionRejectedHandler } from './api';
import { logout } from './auth';
import { paths } from './guard';
import { Root } from './Root';
import { appRoutes } from './routes';

export const router = createBrowserRouter([
  {
    element: <Root />,
    children: appRoutes.map(({ path, meta, element }) => ({ path, element, handle: meta })),
  },
]);

// SPEC.md §4, §8: a 401 with session-expired, or without a valid token, logs out and goes to the site.
setSessionRejectedHandler(() => {
  logout();
  void router.navigate(paths.site, { replace: true });
});
