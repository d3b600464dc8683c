import { AppShell, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { usePublicConfig } from '../../public-site/public-config';
import { customLinks, trainingMenu } from '../menus';
import { permissionsOf } from '../permissions';
import { useSession } from '../session';
import { MAIN_CONTENT_ID, SkipLink } from '../SkipLink';
import { BroadcastBanner } from '../broadcasts/BroadcastBanner';
import { ConsoleHeader } from './ConsoleHeader';
import { consoleBackground } from '../../theme';

/** SPEC.md §2 "Training layout". */
export function TrainingLayout({ children }: { children: ReactNode }) {
  const { user, teams } = useSession();
  const config = usePublicConfig().data;
  return (
    <AppShell header={{ height: 64 }} padding="md">
      <SkipLink />
      <AppShell.Header withBorder={false}>
        <ConsoleHeader
          menu={trainingMenu(permissionsOf(user, teams), config)}
          teamLinks={customLinks(teams)}
        >
          <Text c="white" fw={600} visibleFrom="sm">
            Training
          </Text>
        </ConsoleHeader>
      </AppShell.Header>
      <AppShell.Main bg={consoleBackground} id={MAIN_CONTENT_ID} tabIndex={-1}>
        <BroadcastBanner />
        {children}
      </AppShell.Main>
    </AppShell>
  );
}
