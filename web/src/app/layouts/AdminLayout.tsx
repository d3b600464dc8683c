import { AppShell, Burger, NavLink, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useEffect, type ReactNode } from 'react';
import { Link, useLocation } from 'react-router';
import { consoleBackground, consoleChrome } from '../../theme';
import { adminMenu, adminSidebar, type SidebarItem } from '../menus';
import { permissionsOf } from '../permissions';
import { useSession } from '../session';
import { MAIN_CONTENT_ID, SkipLink } from '../SkipLink';
import { BroadcastBanner } from '../broadcasts/BroadcastBanner';
import { ConsoleHeader } from './ConsoleHeader';

function isActive(item: SidebarItem, pathname: string): boolean {
  // /admin is the users screen too (SPEC.md §2).
  if (item.to === '/admin/users' && pathname === '/admin') return true;
  const section = item.to.replace(/\/edit$/, '');
  return pathname === section || pathname.startsWith(`${section}/`);
}

/** SPEC.md §2 "Admin layout": the sidebar, and a top bar with the company and user names. */
export function AdminLayout({ children }: { children: ReactNode }) {
  const { user, teams } = useSession();
  const { pathname } = useLocation();
  const [navOpened, nav] = useDisclosure(false);
  const permissions = permissionsOf(user, teams);
  const closeNav = nav.close;
  // A section chosen on a phone closes the drawer it was chosen from.
  useEffect(() => closeNav(), [pathname, closeNav]);

  return (
    <AppShell
      header={{ height: 64 }}
      navbar={{ width: 240, breakpoint: 'sm', collapsed: { mobile: !navOpened } }}
      padding="md"
    >
      <SkipLink />
      <AppShell.Header withBorder={false}>
        <ConsoleHeader
          menu={adminMenu(permissions)}
          before={
            <Text c="gray.3" size="sm" fw={500} visibleFrom="sm" data-testid="company-name">
              {user?.companyName}
            </Text>
          }
        >
          <Burger
            opened={navOpened}
            onClick={nav.toggle}
            hiddenFrom="sm"
            size="sm"
            color="white"
            aria-label={navOpened ? 'Close admin navigation' : 'Open admin navigation'}
          />
          <Text c="white" fw={600} visibleFrom="sm">
            Admin
          </Text>
        </ConsoleHeader>
      </AppShell.Header>
      <AppShell.Navbar p="sm" bg={consoleChrome} withBorder={false} className="locus-on-chrome">
        <nav aria-label="Admin sections">
          {adminSidebar(permissions).map((item) => {
            const active = isActive(item, pathname);
            return (
              <NavLink
                key={item.to}
                component={Link}
                to={item.to}
                label={item.label}
                active={active}
                // Said to screen readers, and shown by a bar as well as by colour (WCAG 1.4.1).
                aria-current={active ? 'page' : undefined}
                variant="filled"
                color="navy.6"
                c="white"
                fw={600}
                style={{
                  borderRadius: 6,
                  letterSpacing: 0.5,
                  borderLeft: `4px solid ${active ? '#ffffff' : 'transparent'}`,
                }}
                mb={4}
              />
            );
          })}
        </nav>
      </AppShell.Navbar>
      <AppShell.Main bg={consoleBackground} id={MAIN_CONTENT_ID} tabIndex={-1}>
        <BroadcastBanner />
        {children}
      </AppShell.Main>
    </AppShell>
  );
}
