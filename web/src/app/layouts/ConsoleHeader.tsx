import type { Team } from '@locus/contract';
import { Group } from '@mantine/core';
import type { ReactNode } from 'react';
import { consoleChrome } from '../../theme';
import type { MenuItem } from '../menus';
import { Brand } from './Brand';
import { UserMenu } from './UserMenu';

type TeamLinks = Team['customContent']['links'];

/** The navy bar of the signed-in console: the mark, the layout's own controls, the user menu. */
export function ConsoleHeader({
  children,
  before,
  menu,
  teamLinks,
}: {
  /** Controls beside the mark. */
  children?: ReactNode;
  /** Shown just left of the user menu. */
  before?: ReactNode;
  menu: MenuItem[];
  teamLinks?: TeamLinks;
}) {
  return (
    <Group
      component="header"
      h="100%"
      px={{ base: 8, xs: 'md' }}
      gap="sm"
      justify="space-between"
      wrap="nowrap"
      bg={consoleChrome}
      className="locus-on-chrome"
    >
      <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
        <Brand to="/dashboard" inverted />
        {children}
      </Group>
      <Group gap="sm" wrap="nowrap">
        {before}
        {/* SPEC.md §2: the team's header links and dropdown links are both in the user
            menu, so that a phone reaches them too. */}
        <UserMenu
          items={menu}
          teamLinks={teamLinks ? [...teamLinks.header, ...teamLinks.headerDropdown] : []}
        />
      </Group>
    </Group>
  );
}
