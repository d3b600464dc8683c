import { Button, Center, Loader, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, type ReactNode } from 'react';
import { Navigate, Outlet, useLocation, useMatches } from 'react-router';
import { AuthModalsProvider } from '../auth/AuthModals';
import { usePublicConfig } from '../public-site';
import { currentUserQueryKey, logout, reloadCurrentUser } from './auth';
import { decide } from './guard';
import { AdminLayout } from './layouts/AdminLayout';
import { AuthLayout } from './layouts/AuthLayout';
import { MapLayout } from './layouts/MapLayout';
import { OverwatchLayout } from './layouts/OverwatchLayout';
import { TrainingLayout } from './layouts/TrainingLayout';
import { layoutOf, routeMeta, type LayoutName, type RouteMeta } from './route-meta';
import { isSessionValid, nowInSeconds, useSession } from './session';
import { ThirdPartyScripts } from './ThirdPartyScripts';

const layouts: Record<LayoutName, (props: { children: ReactNode }) => ReactNode> = {
  auth: AuthLayout,
  map: MapLayout,
  admin: AdminLayout,
  overwatch: OverwatchLayout,
  training: TrainingLayout,
};

function WithLayout({ meta, children }: { meta: RouteMeta; children: ReactNode }) {
  const name = layoutOf(meta);
  if (name === null) return children;
  const Layout = layouts[name];
  return <Layout>{children}</Layout>;
}

function FullPage({ children }: { children: ReactNode }) {
  return (
    <Center mih="100vh" p="md">
      {children}
    </Center>
  );
}

/**
 * Refreshes the cached user and teams once per page load, so that a role or level changed
 * meanwhile shows without signing in again. A rejected token logs out through the API client.
 */
function useFreshUser(signedIn: boolean) {
  useQuery({
    queryKey: currentUserQueryKey,
    queryFn: async () => (await reloadCurrentUser()).user,
    enabled: signedIn,
    staleTime: Infinity,
  });
}

/** The route guard of SPEC.md §4 around every page, and the layout the page's metadata names. */
function GuardedOutlet() {
  const meta = routeMeta(useMatches());
  const location = useLocation();
  const { pathname } = location;
  const session = useSession();
  const config = usePublicConfig();
  const signedIn = session.user !== null && isSessionValid(session);
  useFreshUser(signedIn);

  const decision = decide({
    pathname,
    meta,
    session,
    nowSeconds: nowInSeconds(),
    coastGuard: config.data?.coastGuard,
  });

  useEffect(() => {
    if (decision.action === 'logout') logout();
  }, [decision.action]);

  useEffect(() => {
    document.title =
      meta.title === 'Locus' || meta.layout === null ? meta.title : `${meta.title} · Locus`;
  }, [meta]);

  switch (decision.action) {
    case 'logout':
      return null;
    case 'redirect':
      // Keyed by location: a redirect to the same place from a new location must run again.
      return <Navigate key={location.key} to={decision.to} replace />;
    case 'wait':
      if (config.isError) {
        return (
          <FullPage>
            <Stack align="center" role="alert">
              <Text>Locus can&apos;t be reached right now.</Text>
              <Button onClick={() => void config.refetch()}>Try again</Button>
            </Stack>
          </FullPage>
        );
      }
      return (
        <FullPage>
          <Loader aria-label="Loading" />
        </FullPage>
      );
    case 'allow':
      return (
        <>
          <ThirdPartyScripts chatbotHidden={meta.chatbotHidden === true} />
          <WithLayout meta={meta}>
            <Outlet />
          </WithLayout>
        </>
      );
  }
}

export function Root() {
  return (
    <AuthModalsProvider>
      <GuardedOutlet />
    </AuthModalsProvider>
  );
}
