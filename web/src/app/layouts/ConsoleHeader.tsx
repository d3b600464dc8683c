import type { Team } from '@locus/contract';
import { Anchor, Group } from '@mantine/core';
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
        {teamLinks && teamLinks.header.length > 0 && (
          <Group gap="md" wrap="nowrap" visibleFrom="md" component="nav" aria-label="Team links">
            {teamLinks.header.map((link) => (
              <Anchor
                key={`${link.name}-${link.link}`}
                href={link.link}
                target="_blank"
                rel="noopener noreferrer"
                c="white"
                fw={500}
                size="sm"
              >
                {link.name}
              </Anchor>
            ))}
          </Group>
        )}
        <UserMenu items={menu} teamLinks={teamLinks?.headerDropdown} />
      </Group>
    </Group>
  );
}
