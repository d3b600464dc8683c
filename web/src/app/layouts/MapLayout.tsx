import { AppShell, Group } from '@mantine/core';
import { useState, type ReactNode } from 'react';
import { usePublicConfig } from '../../public-site/public-config';
import { customLinks, mapMenu } from '../menus';
import { permissionsOf } from '../permissions';
import { useSession } from '../session';
import { MAIN_CONTENT_ID, SkipLink } from '../SkipLink';
import { BroadcastBanner } from '../broadcasts/BroadcastBanner';
import { ConsoleHeader } from './ConsoleHeader';
import { MapHeaderSlotContext } from './map-header-slot';
import { consoleBackground } from '../../theme';

/**
 * SPEC.md §2 "Map layout header (dashboard)". The page fills the viewport under the header
 * (the map has no natural height), and puts its Locate / End Tracking controls in the header
 * through `MapHeaderControls`.
 */
export function MapLayout({ children }: { children: ReactNode }) {
  const { user, teams } = useSession();
  const config = usePublicConfig().data;
  const [slot, setSlot] = useState<HTMLDivElement | null>(null);
  return (
    <MapHeaderSlotContext.Provider value={slot}>
      <SkipLink />
      <AppShell header={{ height: 64 }} padding={0}>
        <AppShell.Header withBorder={false}>
          <ConsoleHeader
            menu={mapMenu(permissionsOf(user, teams), config)}
            teamLinks={customLinks(teams)}
          >
            <Group ref={setSlot} gap="sm" wrap="nowrap" style={{ minWidth: 0 }} />
          </ConsoleHeader>
        </AppShell.Header>
        <AppShell.Main
          id={MAIN_CONTENT_ID}
          tabIndex={-1}
          bg={consoleBackground}
          style={{ height: '100dvh', display: 'flex', flexDirection: 'column' }}
        >
          <BroadcastBanner />
          {children}
        </AppShell.Main>
      </AppShell>
    </MapHeaderSlotContext.Provider>
  );
}
