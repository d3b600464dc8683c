import { lazy, Suspense, type ReactNode } from 'react';
import { ConsoleSocketConnection } from '../broadcasts/useConsoleSocket';
import { CaseTransferPrompt } from '../case-transfer/CaseTransferPrompt';
import { IdleGuard } from '../idle/IdleGuard';
import type { LayoutName } from '../route-meta';
import { useSession } from '../session';
import { AdminLayout } from './AdminLayout';
import { MapLayout } from './MapLayout';
import { OverwatchLayout } from './OverwatchLayout';
import { TrainingLayout } from './TrainingLayout';

export type ConsoleLayoutName = Exclude<LayoutName, 'auth'>;

const layouts: Record<ConsoleLayoutName, (props: { children: ReactNode }) => ReactNode> = {
  map: MapLayout,
  admin: AdminLayout,
  overwatch: OverwatchLayout,
  training: TrainingLayout,
};

const MfaRequiredPage = lazy(() => import('../../auth/mfa/MfaRequiredPage'));

/**
 * The signed-in console's layouts (header, user menu and its modals, admin sidebar), one chunk
 * that the shell loads on first use: the public site never downloads it. Every layout has the
 * idle timeout; a user whose team requires two-step sign-in sets it up before anything else.
 */
export function ConsoleLayout({
  name,
  children,
}: {
  name: ConsoleLayoutName;
  children: ReactNode;
}) {
  const { user } = useSession();
  const Layout = layouts[name];
  return (
    <>
      <IdleGuard />
      {user?.mfaRequired ? (
        <Suspense fallback={null}>
          <MfaRequiredPage />
        </Suspense>
      ) : (
        <>
          {/* One console socket per tab, kept across layouts: maintenance broadcasts. */}
          <ConsoleSocketConnection />
          {/* A colleague's case-transfer offer, wherever this user is in the app. */}
          <CaseTransferPrompt />
          <Layout>{children}</Layout>
        </>
      )}
    </>
  );
}
