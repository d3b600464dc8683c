import { MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import type { NotificationsProps } from '@mantine/notifications';
import { lazy, Suspense, type ComponentType } from 'react';
import { RouterProvider } from 'react-router';
import { useColorScheme } from './app/color-scheme';
import { queryClient } from './app/query-client';
import { router } from './app/router';
import { useSession } from './app/session';
import { cssVariablesResolver, theme } from './theme';

// Only signed-in pages show notifications, so the public site does not download them. A chunk
// that fails to load leaves the notifications out rather than the whole app.
const Notifications = lazy<ComponentType<NotificationsProps>>(() =>
  import('@mantine/notifications').then(
    (module): { default: ComponentType<NotificationsProps> } => ({
      default: module.Notifications,
    }),
    (error: unknown) => {
      console.warn(error);
      return { default: () => null };
    },
  ),
);

function SignedInNotifications() {
  const { user } = useSession();
  if (user === null) return null;
  return (
    <Suspense fallback={null}>
      <Notifications position="top-right" />
    </Suspense>
  );
}

export function App() {
  // Forced rather than kept by Mantine's colour-scheme manager: the choice lives on the user's
  // account (and in the cached session), not in this browser's local storage.
  const colorScheme = useColorScheme(router);
  return (
    <QueryClientProvider client={queryClient}>
      <MantineProvider
        theme={theme}
        forceColorScheme={colorScheme}
        cssVariablesResolver={cssVariablesResolver}
      >
        <SignedInNotifications />
        <RouterProvider router={router} />
      </MantineProvider>
    </QueryClientProvider>
  );
}
