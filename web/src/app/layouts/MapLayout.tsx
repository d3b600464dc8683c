import { AppShell, Badge, Group, Text } from '@mantine/core';
import { IconPhone } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { usePublicConfig } from '../../public-site/public-config';
import { customLinks, mapMenu } from '../menus';
import { permissionsOf } from '../permissions';
import { useSession } from '../session';
import { ConsoleHeader } from './ConsoleHeader';

/**
 * Where the Locate Numbers / Locate by List controls will sit. They arrive with caller
 * tracking; until then the header says so rather than offering buttons that do nothing.
 */
function LocateControlsComingSoon() {
  return (
    <Group
      gap="xs"
      wrap="nowrap"
      px="sm"
      py={6}
      visibleFrom="sm"
      style={{ borderRadius: 8, border: '1px dashed rgba(255,255,255,0.35)' }}
    >
      <IconPhone size={16} color="white" aria-hidden />
      <Text size="sm" c="gray.3">
        Locate controls
      </Text>
      <Badge size="sm" color="gray.2" c="navy.9" variant="filled">
        Coming soon
      </Badge>
    </Group>
  );
}

/** SPEC.md §2 "Map layout header (dashboard)". */
export function MapLayout({ children }: { children: ReactNode }) {
  const { user, teams } = useSession();
  const config = usePublicConfig().data;
  return (
    <AppShell header={{ height: 64 }} padding="md">
      <AppShell.Header withBorder={false}>
        <ConsoleHeader
          menu={mapMenu(permissionsOf(user, teams), config)}
          teamLinks={customLinks(teams)}
        >
          <LocateControlsComingSoon />
        </ConsoleHeader>
      </AppShell.Header>
      <AppShell.Main bg="gray.0">{children}</AppShell.Main>
    </AppShell>
  );
}
