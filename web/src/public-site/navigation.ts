import { useNavigate } from 'react-router';
import { scrollToSection, scrollToTop } from './scroll';

export type SitePage = 'landing' | 'about';

/**
 * Where the site's links lead (SPEC.md §2 "Landing page"): on the landing page, Platform, Learn
 * and the logo scroll; from the about page they return to / and to its top.
 */
export function useSiteNavigation(page: SitePage) {
  const navigate = useNavigate();
  const goHomeToTop = () => {
    void navigate('/');
    scrollToTop({ instant: true });
  };
  return {
    toSection: (id: string) => (page === 'landing' ? scrollToSection(id) : goHomeToTop()),
    toTop: () => (page === 'landing' ? scrollToTop() : goHomeToTop()),
    toAbout: () => (page === 'about' ? scrollToTop() : void navigate('/about')),
  };
}

/** Plain left clicks are handled in the page; modified clicks (new tab, …) keep the link's default. */
export function isPlainClick(event: {
  button: number;
  metaKey: boolean;
  ctrlKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
}): boolean {
  return event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;
}
