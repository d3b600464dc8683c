import { useEffect, useState, type RefObject } from 'react';

/** SPEC.md §9: section scrolling stops 80 px short, so the sticky navigation bar never covers a heading. */
export const scrollOffset = 80;

function behaviour(): ScrollBehavior {
  return window.matchMedia('(prefers-reduced-motion: reduce)').matches ? 'auto' : 'smooth';
}

/** Scrolls smoothly so the section with this id starts {@link scrollOffset} px below the top. */
export function scrollToSection(id: string): void {
  const target = document.getElementById(id);
  if (!target) return;
  const top = target.getBoundingClientRect().top + window.scrollY - scrollOffset;
  window.scrollTo({ top: Math.max(0, top), behavior: behaviour() });
  // Move keyboard and screen-reader focus with the view, without a second jump.
  target.focus({ preventScroll: true });
}

export function scrollToTop(options: { instant?: boolean } = {}): void {
  window.scrollTo({ top: 0, behavior: options.instant ? 'auto' : behaviour() });
}

/**
 * True once the element has scrolled out above the navigation bar. Reads layout on scroll and
 * resize, at most once per animation frame.
 */
export function useScrolledPast(ref: RefObject<HTMLElement | null>): boolean {
  const [past, setPast] = useState(false);
  useEffect(() => {
    let frame = 0;
    const measure = () => {
      frame = 0;
      const element = ref.current;
      setPast(element !== null && element.getBoundingClientRect().bottom <= scrollOffset);
    };
    const schedule = () => {
      if (frame === 0) frame = requestAnimationFrame(measure);
    };
    measure();
    window.addEventListener('scroll', schedule, { passive: true });
    window.addEventListener('resize', schedule);
    return () => {
      window.removeEventListener('scroll', schedule);
      window.removeEventListener('resize', schedule);
      if (frame !== 0) cancelAnimationFrame(frame);
    };
  }, [ref]);
  return past;
}
