import { Button, Center, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { Navigate, Outlet, useLocation, useMatches } from 'react-router';
import { AuthModalsProvider } from '../auth/AuthModals';
import { usePublicConfig } from '../public-site/public-config';
import { loadContract, loadedContract } from './contract';
import { decide } from './guard';
import { AuthLayout } from './layouts/AuthLayout';
import { lazyPage, PageLoading } from './lazy-page';
import { currentUserQueryKey, logout } from './logout';
import { layoutOf, routeHandle, type RouteMeta } from './route-meta';
import { isSessionValid, nowInSeconds, useSession } from './session';
import { ThirdPartyScripts } from './ThirdPartyScripts';

/** The signed-in console's layouts: one chunk, downloaded with the first console page. */
const ConsoleLayout = lazyPage(
  () => import('./layouts/ConsoleLayout'),
  (module) => module.ConsoleLayout,
  { fullPage: true },
);

function WithLayout({ meta, children }: { meta: RouteMeta; children: ReactNode }) {
  const name = layoutOf(meta);
  if (name === null) return children;
  if (name === 'auth') return <AuthLayout>{children}</AuthLayout>;
  return <ConsoleLayout name={name}>{children}</ConsoleLayout>;
}

function FullPage({ children }: { children: ReactNode }) {
  return (
    <Center mih="100vh" p="md">
      {children}
    </Center>
  );
}

/**
 * How often an open console re-reads its user and teams. A session the server ended (the user
 * was removed from their team or demoted, their password changed, another console signed them
 * out) is signed out on screen within this time even when nobody touches the page, and a role,
 * level, approval or team link changed meanwhile shows without signing in again.
 */
export const SESSION_REFRESH_MS = 15_000;

/**
 * Refreshes the cached user and teams on page load, every `SESSION_REFRESH_MS` (in a background
 * tab too: an unattended console must not stay signed in) and when the window gets focus. A
 * rejected token logs out through the API client. These reads are not activity for the idle timeout.
 */
function useFreshUser(signedIn: boolean) {
  useQuery({
    queryKey: currentUserQueryKey,
    queryFn: async () => {
      // The API client comes with the contract, which only signed-in pages download.
      const { reloadCurrentUser } = await import('./auth');
      return (await reloadCurrentUser()).user;
    },
    enabled: signedIn,
    staleTime: SESSION_REFRESH_MS,
    refetchInterval: SESSION_REFRESH_MS,
    refetchIntervalInBackground: true,
    refetchOnWindowFocus: true,
  });
}

/**
 * The contract, for the route guard's coast-guard rule: loaded once someone is signed in (a
 * stored session has it already, see `restoreSession`). Null while it loads or after it failed.
 */
function useContract(signedIn: boolean) {
  const [contract, setContract] = useState(loadedContract);
  const [failed, setFailed] = useState(false);
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    if (!signedIn || contract) return;
    let current = true;
    setFailed(false);
    loadContract().then(
      (loaded) => current && setContract(loaded),
      (error: unknown) => {
        console.warn(error);
        if (current) setFailed(true);
      },
    );
    return () => {
      current = false;
    };
  }, [signedIn, contract, attempt]);
  return { module: contract, failed, retry: () => setAttempt((value) => value + 1) };
}

/**
 * Says why the guard sent a signed-in user away (a team admin typing /admin/dev). One notice at a
 * time (its id): a double effect, or a second bounce meanwhile, does not stack copies. The
 * notifications module is only loaded by signed-in pages, so it is imported here on demand.
 */
function showRedirectNotice(message: string): void {
  void import('@mantine/notifications').then(
    ({ notifications }) =>
      notifications.show({
        id: 'route-guard-notice',
        message,
        color: 'yellow',
        autoClose: 15_000,
      }),
    (error: unknown) => console.warn(error),
  );
}

/** The route guard of SPEC.md §4 around every page, and the layout the page's metadata names. */
function GuardedOutlet() {
  const { meta, preload } = routeHandle(useMatches());
  const location = useLocation();
  const { pathname } = location;
  const session = useSession();
  const config = usePublicConfig();
  const signedIn = session.user !== null && isSessionValid(session);
  useFreshUser(signedIn);
  const contract = useContract(signedIn);

  const coastGuard = config.data?.coastGuard;
  const isCoastGuardEmail = contract.module?.isCoastGuardEmail;
  const coastGuardRule = useMemo(
    () =>
      coastGuard && isCoastGuardEmail
        ? (email: string) => isCoastGuardEmail(email, coastGuard)
        : undefined,
    [coastGuard, isCoastGuardEmail],
  );

  const decision = decide({
    pathname,
    meta,
    session,
    nowSeconds: nowInSeconds(),
    isCoastGuardEmail: coastGuardRule,
  });

  useEffect(() => {
    if (decision.action === 'logout') logout();
  }, [decision.action]);

  const redirectNotice = decision.action === 'redirect' ? decision.notice : undefined;
  useEffect(() => {
    if (redirectNotice) showRedirectNotice(redirectNotice);
  }, [redirectNotice, location.key]);

  // A page in a lazy layout downloads alongside the layout, not once the layout has arrived.
  useEffect(() => {
    if (decision.action === 'allow') preload?.();
  }, [decision.action, preload]);

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
      if (config.isError || contract.failed) {
        return (
          <FullPage>
            <Stack align="center" role="alert">
              <Text>Locus can&apos;t be reached right now.</Text>
              <Button
                onClick={() => {
                  if (config.isError) void config.refetch();
                  if (contract.failed) contract.retry();
                }}
              >
                Try again
              </Button>
            </Stack>
          </FullPage>
        );
      }
      return <PageLoading fullPage />;
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
