import { Button, Drawer } from '@mantine/core';
import type { MouseEvent } from 'react';
import { LocusMark } from './LocusMark';
import classes from './public-site.module.css';

/** One item of the site's navigation: where its link points, and what a plain click does. */
export interface SiteNavItem {
  label: string;
  href: string;
  current?: boolean;
  run(): void;
}

/** The site header's menu below the md breakpoint: the same items, over a backdrop. */
export function MobileMenu({
  id,
  opened,
  onClose,
  onExitTransitionEnd,
  items,
  onLinkClick,
  onSignIn,
  onSignUp,
}: {
  id: string;
  opened: boolean;
  onClose(): void;
  onExitTransitionEnd(): void;
  items: SiteNavItem[];
  onLinkClick(event: MouseEvent<HTMLAnchorElement>, run: () => void): void;
  onSignIn(): void;
  onSignUp(): void;
}) {
  return (
    <Drawer
      id={id}
      opened={opened}
      onClose={onClose}
      onExitTransitionEnd={onExitTransitionEnd}
      position="right"
      size={320}
      title={
        <span className={classes.logo} style={{ cursor: 'default' }}>
          <LocusMark />
          <span>Locus</span>
        </span>
      }
      overlayProps={{ backgroundOpacity: 0.6, color: '#07142a' }}
      closeButtonProps={{ 'aria-label': 'Close menu' }}
      hiddenFrom="md"
    >
      <nav aria-label="Mobile">
        <ul className={classes.drawerLinks} style={{ listStyle: 'none', margin: 0, padding: 0 }}>
          {items.map((item) => (
            <li key={item.label}>
              <a
                href={item.href}
                className={classes.drawerLink}
                aria-current={item.current ? 'page' : undefined}
                onClick={(event) => onLinkClick(event, item.run)}
              >
                {item.label}
              </a>
            </li>
          ))}
          <li style={{ marginTop: 16 }}>
            <Button fullWidth size="md" variant="outline" color="#0b1f3a" onClick={onSignIn}>
              Sign In
            </Button>
          </li>
          <li style={{ marginTop: 8 }}>
            <Button fullWidth size="md" color="#c8102e" onClick={onSignUp}>
              Sign Up
            </Button>
          </li>
        </ul>
      </nav>
    </Drawer>
  );
}
