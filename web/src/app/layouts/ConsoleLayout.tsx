import type { ReactNode } from 'react';
import type { LayoutName } from '../route-meta';
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

/**
 * The signed-in console's layouts (header, user menu and its modals, admin sidebar), one chunk
 * that the shell loads on first use: the public site never downloads it.
 */
export function ConsoleLayout({
  name,
  children,
}: {
  name: ConsoleLayoutName;
  children: ReactNode;
}) {
  const Layout = layouts[name];
  return <Layout>{children}</Layout>;
}
