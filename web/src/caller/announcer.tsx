/** @jsxImportSource preact */
import { createContext, type ComponentChildren } from 'preact';
import { useCallback, useContext, useEffect, useState } from 'preact/hooks';

/**
 * What screen readers are told when the page changes by itself or after a tap: `status` politely
 * (sharing began, the caller stopped, the dispatcher ended the request), `alert` at once (an
 * error). Each is one region that is on the page from its first render, so that every change is
 * heard, and that says a sentence only when the state it describes changes: a new position
 * changes nothing here.
 */
export type Politeness = 'status' | 'alert';

type Announce = (politeness: Politeness, owner: object, text: string | null) => void;

const AnnounceContext = createContext<Announce>(() => undefined);

interface Said {
  owner: object | null;
  text: string;
}

const nobody: Said = { owner: null, text: '' };

/** The page's two live regions, kept after the views so they never come first in reading order. */
export function Announcer({ children }: { children: ComponentChildren }) {
  const [status, setStatus] = useState<Said>(nobody);
  const [alert, setAlert] = useState<Said>(nobody);
  const announce = useCallback<Announce>((politeness, owner, text) => {
    const set = politeness === 'status' ? setStatus : setAlert;
    set((said) => {
      // A view that goes away takes its sentence along, unless another has spoken since.
      if (text === null) return said.owner === owner ? nobody : said;
      return said.owner === owner && said.text === text ? said : { owner, text };
    });
  }, []);
  return (
    <AnnounceContext.Provider value={announce}>
      {children}
      <p class="visually-hidden" role="status" aria-live="polite" aria-atomic="true">
        {status.text}
      </p>
      <p class="visually-hidden" role="alert" aria-atomic="true">
        {alert.text}
      </p>
    </AnnounceContext.Provider>
  );
}

/**
 * Says `text` in the page's `politeness` region while the calling view shows it (null: nothing
 * to say); said again only when it changes (another state, another language).
 */
export function useAnnouncement(politeness: Politeness, text: string | null): void {
  const announce = useContext(AnnounceContext);
  const [owner] = useState(() => ({}));
  useEffect(() => {
    announce(politeness, owner, text);
  }, [announce, politeness, owner, text]);
  useEffect(() => () => announce(politeness, owner, null), [announce, politeness, owner]);
}
