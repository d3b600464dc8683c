import type { ColorScheme, Team } from '@locus/contract';
import { Avatar, Box, Button, Menu, Text, VisuallyHidden } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconChevronDown, IconExternalLink } from '@tabler/icons-react';
import { useId, useRef, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { api, expect } from '../api';
import type { MenuItem } from '../menus';
import { sessionStore, useSession } from '../session';
import { ChangeEmailModal } from './ChangeEmailModal';
import { ProfileModal } from './ProfileModal';

type HeaderLink = Team['customContent']['links']['header'][number];

const newTab = { target: '_blank', rel: 'noopener noreferrer' } as const;

const themes: { value: ColorScheme; label: string }[] = [
  { value: 'auto', label: 'System' },
  { value: 'light', label: 'Light' },
  { value: 'dark', label: 'Dark' },
];

/**
 * The user's theme: applied at once (the session's user is what the page is drawn from), then
 * saved on their account. A failed save puts the theme back. Only the latest choice's answer
 * counts, so two quick choices cannot end on the first.
 */
function useThemeChoice() {
  const latest = useRef(0);
  return async (colorScheme: ColorScheme) => {
    const { user, teams } = sessionStore.get();
    if (!user) return;
    const request = ++latest.current;
    sessionStore.setUser({ ...user, colorScheme }, teams);
    try {
      const updated = expect(
        await api.users.patch({ params: { id: user.id }, body: { colorScheme } }),
        200,
      );
      // Only for the user still signed in: a sign-out (or another user) meanwhile wins.
      if (request === latest.current && sessionStore.get().user?.id === user.id)
        sessionStore.setUser(updated, sessionStore.get().teams);
    } catch {
      if (request !== latest.current) return;
      const now = sessionStore.get();
      if (now.user?.id === user.id) {
        sessionStore.setUser({ ...now.user, colorScheme: user.colorScheme }, now.teams);
      }
      notifications.show({ message: 'Your theme could not be saved.', color: 'red' });
    }
  };
}

/**
 * A labelled part of the menu. A role=menu may only hold menu items, groups and separators
 * (axe's aria-required-children), so each Menu.Label heads a group it names.
 */
function MenuGroup({ label, children }: { label: ReactNode; children: ReactNode }) {
  const labelId = useId();
  return (
    <div role="group" aria-labelledby={labelId}>
      <Menu.Label id={labelId}>{label}</Menu.Label>
      {children}
    </div>
  );
}

/**
 * The signed-in user's menu: their first and last name, then the layout's items. The team's
 * header and dropdown links (opened in a new tab) come just before Sign Out.
 */
export function UserMenu({
  items,
  teamLinks = [],
}: {
  items: MenuItem[];
  teamLinks?: HeaderLink[];
}) {
  const { user } = useSession();
  const chooseTheme = useThemeChoice();
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
      {/* No initial-focus placeholder: it is a focusable presentational node inside the menu
          (axe: aria-required-children). The focus trap stays: it is what moves focus into the
          menu when it is opened from the keyboard. */}
      <Menu
        position="bottom-end"
        width={240}
        shadow="md"
        withinPortal
        withInitialFocusPlaceholder={false}
      >
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
            rightSection={
              <Box visibleFrom="xs" style={{ display: 'flex' }}>
                <IconChevronDown size={16} aria-hidden />
              </Box>
            }
          >
            {/* Named by its visible text (WCAG 2.5.3), then what it is; narrow screens hide
                the name from sight only. */}
            <Text span fw={600} size="sm" visibleFrom="xs">
              {name}
            </Text>
            <VisuallyHidden hiddenFrom="xs">{name}</VisuallyHidden>
            <VisuallyHidden>: user menu</VisuallyHidden>
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          <MenuGroup label={user?.email}>{rest.map(render)}</MenuGroup>
          <Menu.Divider role="separator" />
          <MenuGroup label="Theme">
            <Menu.RadioGroup
              value={user?.colorScheme ?? 'auto'}
              onChange={(value) => {
                const choice = themes.find((theme) => theme.value === value);
                if (choice) void chooseTheme(choice.value);
              }}
            >
              {themes.map((theme) => (
                <Menu.RadioItem key={theme.value} value={theme.value} closeMenuOnClick={false}>
                  {theme.label}
                </Menu.RadioItem>
              ))}
            </Menu.RadioGroup>
          </MenuGroup>
          {teamLinks.length > 0 && (
            <>
              <Menu.Divider role="separator" />
              {teamLinks.map((link, index) => (
                <Menu.Item
                  key={`${index}-${link.link}`}
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
              <Menu.Divider role="separator" />
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
