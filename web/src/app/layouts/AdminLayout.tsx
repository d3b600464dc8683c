import { AppShell, Burger, NavLink, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useEffect, type ReactNode } from 'react';
import { Link, useLocation } from 'react-router';
import { consoleChrome } from '../../theme';
import { adminMenu, adminSidebar, type SidebarItem } from '../menus';
import { permissionsOf } from '../permissions';
import { useSession } from '../session';
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
          {adminSidebar(permissions).map((item) => (
            <NavLink
              key={item.to}
              component={Link}
              to={item.to}
              label={item.label}
              active={isActive(item, pathname)}
              variant="filled"
              color="navy.6"
              c="white"
              fw={600}
              style={{ borderRadius: 6, letterSpacing: 0.5 }}
              mb={4}
            />
          ))}
        </nav>
      </AppShell.Navbar>
      <AppShell.Main bg="gray.0">{children}</AppShell.Main>
    </AppShell>
  );
}
