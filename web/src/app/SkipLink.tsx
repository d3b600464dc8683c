/** The id every layout gives its main content, so the skip link has somewhere to go. */
export const MAIN_CONTENT_ID = 'main-content';

/**
 * "Skip to main content": the first thing a keyboard user reaches on every page, hidden until
 * then (WCAG 2.4.1). Focus moves to the main region, so the next Tab continues from there.
 */
export function SkipLink() {
  return (
    <a
      className="locus-skip-link"
      href={`#${MAIN_CONTENT_ID}`}
      onClick={(event) => {
        const main = document.getElementById(MAIN_CONTENT_ID);
        if (!main) return;
        event.preventDefault();
        main.focus();
        main.scrollIntoView({ block: 'start' });
      }}
    >
      Skip to main content
    </a>
  );
}
