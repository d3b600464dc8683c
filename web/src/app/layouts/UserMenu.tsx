import type { Team } from '@locus/contract';
import { Avatar, Button, Menu, Text } from '@mantine/core';
import { IconChevronDown, IconExternalLink } from '@tabler/icons-react';
import { useRef, useState } from 'react';
import { Link } from 'react-router';
import type { MenuItem } from '../menus';
import { useSession } from '../session';
import { ChangeEmailModal } from './ChangeEmailModal';
import { ProfileModal } from './ProfileModal';

type HeaderLink = Team['customContent']['links']['header'][number];

const newTab = { target: '_blank', rel: 'noopener noreferrer' } as const;

/**
 * The signed-in user's menu: their first and last name, then the layout's items. The team's
 * dropdown links (opened in a new tab) come just before Sign Out.
 */
export function UserMenu({
  items,
  teamLinks = [],
}: {
  items: MenuItem[];
  teamLinks?: HeaderLink[];
}) {
  const { user } = useSession();
  const [dialog, setDialog] = useState<'profile' | 'change-email' | null>(null);
  const target = useRef<HTMLButtonElement>(null);
  const refocus = () => target.current?.focus();
  const name = user ? `${user.firstName} ${user.lastName}` : '';
  const initials = user ? `${user.firstName.charAt(0)}${user.lastName.charAt(0)}` : '';

  const render = (item: MenuItem) => {
    switch (item.kind) {
      case 'route':
        return (
          <Menu.Item key={item.label} component={Link} to={item.to}>
            {item.label}
          </Menu.Item>
        );
      case 'external':
        return (
          <Menu.Item
            key={item.label}
            component="a"
            href={item.href}
            {...newTab}
            rightSection={<IconExternalLink size={14} aria-hidden />}
          >
            {item.label}
          </Menu.Item>
        );
      case 'action':
        return (
          <Menu.Item key={item.label} onClick={() => setDialog(item.action)}>
            {item.label}
          </Menu.Item>
        );
    }
  };

  const signOut = items.find((item) => item.label === 'Sign Out');
  const rest = items.filter((item) => item !== signOut);

  return (
    <>
      <Menu position="bottom-end" width={240} shadow="md" withinPortal>
        <Menu.Target>
          <Button
            ref={target}
            variant="subtle"
            color="gray.0"
            c="white"
            px="xs"
            leftSection={
              <Avatar size={28} radius="xl" color="white" variant="outline" aria-hidden>
                {initials}
              </Avatar>
            }
            rightSection={<IconChevronDown size={16} aria-hidden />}
            aria-label={`${name}: user menu`}
          >
            <Text span fw={600} size="sm" visibleFrom="xs">
              {name}
            </Text>
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Label>{user?.email}</Menu.Label>
          {rest.map(render)}
          {teamLinks.length > 0 && (
            <>
              <Menu.Divider />
              {teamLinks.map((link) => (
                <Menu.Item
                  key={`${link.name}-${link.link}`}
                  component="a"
                  href={link.link}
                  {...newTab}
                  rightSection={<IconExternalLink size={14} aria-hidden />}
                >
                  {link.name}
                </Menu.Item>
              ))}
            </>
          )}
          {signOut && (
            <>
              <Menu.Divider />
              {render(signOut)}
            </>
          )}
        </Menu.Dropdown>
      </Menu>
      <ProfileModal
        opened={dialog === 'profile'}
        onClose={() => setDialog(null)}
        onExited={refocus}
      />
      <ChangeEmailModal
        opened={dialog === 'change-email'}
        onClose={() => setDialog(null)}
        onExited={refocus}
      />
    </>
  );
}
