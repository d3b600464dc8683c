import { Box, Burger, Button, Container } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useEffect, useRef, useState, type MouseEvent } from 'react';
import { Link } from 'react-router';
import { lazyModal } from '../app/lazy-page';
import { LocusMark } from './LocusMark';
import type { SiteNavItem } from './MobileMenu';
import { isPlainClick, useSiteNavigation, type SitePage } from './navigation';
import classes from './public-site.module.css';
import { sectionIds } from './sections/ids';

export interface SiteHeaderProps {
  /** Which page the bar is on: section links scroll on the landing page and lead home from elsewhere. */
  page: SitePage;
  onSignIn(): void;
  onSignUp(): void;
}

const menuId = 'public-site-menu';

// The phone menu is a drawer (with Mantine's scroll area and, with it, floating-ui): downloaded
// when first opened, so that the landing page stays light.
const MobileMenu = lazyModal(
  () => import('./MobileMenu'),
  (module) => module.MobileMenu,
);

/**
 * The navigation bar of SPEC.md §2 "Landing page": Platform, Learn, About, Sign In and Sign Up,
 * and below the md breakpoint a hamburger opening the same items over a backdrop.
 */
export function SiteHeader({ page, onSignIn, onSignUp }: SiteHeaderProps) {
  const { toSection, toTop, toAbout } = useSiteNavigation(page);
  const [menuOpen, setMenuOpen] = useState(false);
  // Widening the window past the breakpoint hides the menu: close it so the page scrolls again.
  const wide = useMediaQuery('(min-width: 62em)');
  useEffect(() => {
    if (wide) setMenuOpen(false);
  }, [wide]);
  // Actions picked in the mobile menu run once it has closed and unlocked the page's scroll.
  const pendingAction = useRef<(() => void) | null>(null);

  const items: SiteNavItem[] = [
    {
      label: 'Platform',
      href: `/#${sectionIds.platform}`,
      run: () => toSection(sectionIds.platform),
    },
    { label: 'Learn', href: `/#${sectionIds.learn}`, run: () => toSection(sectionIds.learn) },
    {
      label: 'About',
      href: '/about',
      current: page === 'about',
      run: toAbout,
    },
  ];

  const onLinkClick = (
    event: MouseEvent<HTMLAnchorElement>,
    run: () => void,
    fromMenu: boolean,
  ) => {
    if (!isPlainClick(event)) return;
    event.preventDefault();
    if (fromMenu) closeMenuThen(run);
    else run();
  };

  const closeMenuThen = (run: () => void) => {
    pendingAction.current = run;
    setMenuOpen(false);
  };

  const runPendingAction = () => {
    const run = pendingAction.current;
    pendingAction.current = null;
    // One more frame so the scroll lock is gone before a smooth scroll starts.
    if (run) requestAnimationFrame(run);
  };

  const logo = (
    <Link
      to="/"
      className={classes.logo}
      aria-label="Locus home"
      onClick={(event) => onLinkClick(event, toTop, false)}
    >
      <LocusMark />
      <span>Locus</span>
    </Link>
  );

  return (
    <header className={classes.header}>
      <Container size="lg" className={classes.headerInner}>
        {logo}
        <Box component="nav" aria-label="Main" visibleFrom="md">
          <ul className={classes.navLinks} style={{ listStyle: 'none', margin: 0, padding: 0 }}>
            {items.map((item) => (
              <li key={item.label}>
                <a
                  href={item.href}
                  className={classes.navLink}
                  aria-current={item.current ? 'page' : undefined}
                  onClick={(event) => onLinkClick(event, item.run, false)}
                >
                  {item.label}
                </a>
              </li>
            ))}
          </ul>
        </Box>
        <div className={classes.navActions}>
          <Button
            variant="subtle"
            color="#0b1f3a"
            visibleFrom="md"
            onClick={onSignIn}
            styles={{ root: { fontSize: 15 } }}
          >
            Sign In
          </Button>
          <Button
            color="#c8102e"
            visibleFrom="md"
            onClick={onSignUp}
            styles={{ root: { fontSize: 15 } }}
          >
            Sign Up
          </Button>
          <Burger
            hiddenFrom="md"
            opened={menuOpen}
            onClick={() => setMenuOpen((open) => !open)}
            aria-label="Menu"
            aria-expanded={menuOpen}
            aria-controls={menuId}
          />
        </div>
      </Container>

      <MobileMenu
        id={menuId}
        opened={menuOpen}
        onClose={() => setMenuOpen(false)}
        onExitTransitionEnd={runPendingAction}
        items={items}
        onLinkClick={(event, run) => onLinkClick(event, run, true)}
        onSignIn={() => closeMenuThen(onSignIn)}
        onSignUp={() => closeMenuThen(onSignUp)}
      />
    </header>
  );
}
