import { useEffect, useRef } from 'react';
import { usePublicConfig } from './public-config';
import { scrollToSection } from './scroll';
import { ScrollToTopButton } from './ScrollToTopButton';
import { BookDemoCta } from './sections/BookDemoCta';
import { Features } from './sections/Features';
import { Hero } from './sections/Hero';
import { sectionIds } from './sections/ids';
import { Learn } from './sections/Learn';
import { Partners } from './sections/Partners';
import { Statistics } from './sections/Statistics';
import { SiteFrame, type PublicPageProps } from './SiteFrame';

/** The public landing page at / (SPEC.md §1 "Public landing site content", §2 "Landing page"). */
export function LandingPage({ onSignIn, onSignUp }: PublicPageProps) {
  const config = usePublicConfig();
  const partners = useRef<HTMLElement>(null);

  // A link opened in a new tab (/#platform) lands on its section.
  useEffect(() => {
    const id = decodeURIComponent(window.location.hash.slice(1));
    if ((Object.values(sectionIds) as string[]).includes(id)) scrollToSection(id);
  }, []);

  return (
    <SiteFrame page="landing" onSignIn={onSignIn} onSignUp={onSignUp}>
      {({ openBookDemo }) => (
        <>
          <Hero onBookDemo={openBookDemo} onSignUp={onSignUp} />
          <Partners ref={partners} />
          <Statistics />
          <Features />
          <Learn demoVideoUrl={config.data?.demoVideoUrl ?? null} />
          <BookDemoCta onBookDemo={openBookDemo} onSignUp={onSignUp} />
          <ScrollToTopButton after={partners} />
        </>
      )}
    </SiteFrame>
  );
}
