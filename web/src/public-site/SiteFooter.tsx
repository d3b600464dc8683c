import type { PublicConfig } from '@locus/contract';
import { Container } from '@mantine/core';
import {
  IconBrandFacebook,
  IconBrandGithub,
  IconBrandInstagram,
  IconBrandLinkedin,
  IconBrandX,
  IconBrandYoutube,
  IconWorld,
  type Icon,
} from '@tabler/icons-react';
import type { MouseEvent, ReactNode } from 'react';
import { LocusMark } from './LocusMark';
import { isPlainClick, useSiteNavigation, type SitePage } from './navigation';
import classes from './public-site.module.css';
import { sectionIds } from './sections/ids';

const socialIcons: Array<[RegExp, Icon]> = [
  [/linkedin/i, IconBrandLinkedin],
  [/^(x|twitter)$/i, IconBrandX],
  [/facebook/i, IconBrandFacebook],
  [/youtube/i, IconBrandYoutube],
  [/instagram/i, IconBrandInstagram],
  [/github/i, IconBrandGithub],
];

function socialIcon(name: string): Icon {
  return socialIcons.find(([pattern]) => pattern.test(name.trim()))?.[1] ?? IconWorld;
}

function External({ href, children }: { href: string; children: ReactNode }) {
  return (
    <a className={classes.footerLink} href={href} target="_blank" rel="noopener noreferrer">
      {children}
    </a>
  );
}

export interface SiteFooterProps {
  page: SitePage;
  /** Undefined while the public configuration loads (or if it cannot be loaded). */
  config: PublicConfig | undefined;
  onOpenPrivacy(): void;
  onOpenTerms(): void;
}

/** Support, careers and social links from the configuration, and the two legal dialogs. */
export function SiteFooter({ page, config, onOpenPrivacy, onOpenTerms }: SiteFooterProps) {
  const { toSection, toTop, toAbout } = useSiteNavigation(page);
  const inPage = (run: () => void) => (event: MouseEvent<HTMLAnchorElement>) => {
    if (!isPlainClick(event)) return;
    event.preventDefault();
    run();
  };
  const links = config?.links;

  return (
    <footer className={classes.footer}>
      <Container size="lg">
        <div className={classes.footerGrid}>
          <div>
            <a href="/" className={classes.footerBrand} onClick={inPage(toTop)}>
              <LocusMark onDark />
              <span>Locus</span>
            </a>
            <p style={{ margin: '14px 0 0', maxWidth: 340, lineHeight: 1.6, fontSize: 15 }}>
              Consent-based caller location for emergency and public-safety services. In an
              emergency, always call 911.
            </p>
            {links && links.social.length > 0 && (
              <ul className={classes.social} style={{ listStyle: 'none', padding: 0 }}>
                {links.social.map(({ name, url }) => {
                  const SocialIcon = socialIcon(name);
                  return (
                    <li key={url}>
                      <a
                        className={classes.socialLink}
                        href={url}
                        target="_blank"
                        rel="noopener noreferrer"
                        aria-label={`Locus on ${name}`}
                        title={name}
                      >
                        <SocialIcon size={20} stroke={1.7} aria-hidden="true" />
                      </a>
                    </li>
                  );
                })}
              </ul>
            )}
          </div>

          <nav aria-label="Product">
            <h2 className={classes.footerHeading}>Product</h2>
            <ul className={classes.footerList}>
              <li>
                <a
                  className={classes.footerLink}
                  href={`/#${sectionIds.platform}`}
                  onClick={inPage(() => toSection(sectionIds.platform))}
                >
                  Platform
                </a>
              </li>
              <li>
                <a
                  className={classes.footerLink}
                  href={`/#${sectionIds.learn}`}
                  onClick={inPage(() => toSection(sectionIds.learn))}
                >
                  Learn
                </a>
              </li>
              <li>
                <a className={classes.footerLink} href="/api/docs">
                  API documentation
                </a>
              </li>
            </ul>
          </nav>

          <nav aria-label="Company">
            <h2 className={classes.footerHeading}>Company</h2>
            <ul className={classes.footerList}>
              <li>
                <a className={classes.footerLink} href="/about" onClick={inPage(toAbout)}>
                  About
                </a>
              </li>
              {links && (
                <>
                  <li>
                    <External href={links.support}>Support</External>
                  </li>
                  <li>
                    <External href={links.careers}>Careers</External>
                  </li>
                </>
              )}
            </ul>
          </nav>

          <nav aria-label="Legal">
            <h2 className={classes.footerHeading}>Legal</h2>
            <ul className={classes.footerList}>
              <li>
                <button type="button" className={classes.footerLink} onClick={onOpenPrivacy}>
                  Privacy Policy
                </button>
              </li>
              <li>
                <button type="button" className={classes.footerLink} onClick={onOpenTerms}>
                  Terms of Use and Service
                </button>
              </li>
            </ul>
          </nav>
        </div>

        <div className={classes.footerBottom}>
          <span>© {new Date().getFullYear()} Locus. All rights reserved.</span>
          <span>A caller&apos;s location is visible only to the agency that requested it.</span>
        </div>
      </Container>
    </footer>
  );
}
