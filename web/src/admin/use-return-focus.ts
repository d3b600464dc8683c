import { useEffect, useRef, useState, type RefObject } from 'react';

/**
 * Gives the focus back when a dialog mounted already open (`{open && <ConfirmModal …/>}`) goes
 * away. Mantine hands it back only when `opened` changes, which never happens to these, so a
 * keyboard user used to land on the page's body and had to Tab from the top again. It goes to
 * what had the focus when the dialog mounted (the button that opened it), or to `fallback` when
 * that one is gone (a revoked key's Revoke button), and only if nothing else has taken it.
 */
export function useReturnFocus(fallback?: RefObject<HTMLElement | null>): void {
  // Read while the dialog first renders: its focus trap moves the focus only afterwards.
  const [opener] = useState(() =>
    document.activeElement instanceof HTMLElement ? document.activeElement : null,
  );
  const fallbackRef = useRef(fallback);
  fallbackRef.current = fallback;
  useEffect(
    () => () => {
      // After the render that removed the dialog (and the button, if its row changed).
      setTimeout(() => {
        const active = document.activeElement;
        if (active && active !== document.body && active.isConnected) return;
        // Safari does not focus a clicked button: then there was no opener to go back to, and
        // the focus stays where the browser puts it, as before.
        if (!opener || opener === document.body) return;
        const target = opener.isConnected ? opener : fallbackRef.current?.current;
        target?.focus({ preventScroll: true });
      }, 0);
    },
    [opener],
  );
}
