/** @jsxImportSource preact */
import { callerTexts, type CallerLink } from '@locus/contract/caller';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { CallerFrame } from './CallerFrame';
import { fetchCallerLink } from './caller-link';
import { FixQueue, forgetLink } from './fix-queue';
import { sharingMemory } from './sharing-memory';
import { LinkEndView, LoadFailedView, LoadingView } from './LinkEndViews';
import { ShareFlow } from './ShareFlow';
import { useCallerLanguage } from './useCallerLanguage';

/** Delays before asking again about a link that did not load; the last one repeats. */
const RETRY_MS = [2_000, 4_000, 8_000, 15_000];

export type LinkState =
  { kind: 'loading' } | { kind: 'failed' } | { kind: 'loaded'; link: CallerLink };

/** Asks about the link; never rejects. */
export function loadLink(token: string): Promise<LinkState> {
  return fetchCallerLink(token).then(
    (link): LinkState => ({ kind: 'loaded', link }),
    (): LinkState => ({ kind: 'failed' }),
  );
}

/**
 * `/share?token=…`, the page a caller opens from the text message (its own entry, `share.html`,
 * with none of the console's code). No sign-in: everything it needs is the link's token. It asks
 * for consent, then streams the phone's location. `main.tsx` asks about the link before the
 * first render (`firstLoad`) and, when the answer is already in (`initial`), renders with it.
 */
export function CallerApp({
  token,
  firstLoad,
  initial,
}: {
  token: string | null;
  firstLoad: Promise<LinkState> | null;
  initial: LinkState | null;
}) {
  const [link, setLink] = useState<LinkState>(initial ?? { kind: 'loading' });
  // Fixes an earlier page on this phone could not send (loaded once the page has painted).
  const [queue] = useState(() => (token === null ? null : FixQueue.open(token)));
  // The socket refused the link after the page loaded: ask again what became of it.
  const [revoked, setRevoked] = useState(false);
  const [failures, setFailures] = useState(0);

  const settle = useCallback((answer: LinkState) => {
    if (answer.kind === 'loaded') setFailures(0);
    setLink(answer);
  }, []);

  // Only the newest request's answer counts: an automatic retry still out on a weak signal must
  // not come back late as "failed" over a page the caller is already sharing from.
  const generation = useRef(0);
  const ask = useCallback(
    (onAnswer?: () => void) => {
      if (token === null) return;
      const mine = ++generation.current;
      void loadLink(token).then((answer) => {
        onAnswer?.();
        if (mine === generation.current) settle(answer);
      });
    },
    [token, settle],
  );

  const load = useCallback(() => {
    if (token === null) return;
    setLink({ kind: 'loading' });
    ask();
  }, [token, ask]);

  useEffect(() => {
    if (initial === null)
      void firstLoad?.then((answer) => {
        if (generation.current === 0) settle(answer);
      });
  }, [initial, firstLoad, settle]);

  // A link that did not load (no signal, the server busy) is asked about again by itself, and
  // at once when the phone says the network is back: a caller who was sharing before a reload
  // must not stay stopped until they find the Try again button. Meanwhile the page stays as it
  // is (no loading ring every few seconds, no error said again to a screen reader).
  const retrying = useRef(false);
  useEffect(() => {
    if (link.kind !== 'failed' || token === null || retrying.current) return;
    const delay = RETRY_MS[Math.min(failures, RETRY_MS.length - 1)];
    const retry = () => {
      if (retrying.current) return;
      retrying.current = true;
      setFailures((count) => count + 1);
      ask(() => {
        retrying.current = false;
      });
    };
    const timer = setTimeout(retry, delay);
    window.addEventListener('online', retry);
    return () => {
      clearTimeout(timer);
      window.removeEventListener('online', retry);
    };
  }, [link, failures, token, ask]);

  const onRevoked = useCallback(() => {
    setRevoked(true);
    load();
  }, [load]);

  const loaded = link.kind === 'loaded' ? link.link : null;
  const ended = loaded !== null && loaded.status !== 'active';
  useEffect(() => {
    if (!ended || token === null) return;
    forgetLink(token);
    sharingMemory.remember(token, false);
  }, [ended, token]);
  const [language, setLanguage] = useCallerLanguage(loaded?.language ?? null);
  const texts = callerTexts[language];
  const t = texts.page;

  let content;
  if (token === null) {
    content = <LinkEndView end="invalid" t={t} />;
  } else if (link.kind === 'failed') {
    content = <LoadFailedView t={t} onRetry={load} />;
  } else if (loaded === null) {
    content = <LoadingView t={t} />;
  } else if (loaded.status !== 'active') {
    content = <LinkEndView end={loaded.status} t={t} announce={revoked} />;
  } else if (queue === null) {
    content = <LoadingView t={t} />;
  } else if (revoked) {
    content = <LinkEndView end="invalid" t={t} announce />;
  } else {
    content = (
      <ShareFlow
        key={token}
        token={token}
        queue={queue}
        agencyName={loaded.agencyName}
        textBack={loaded.textBack}
        texts={texts}
        language={language}
        onRevoked={onRevoked}
      />
    );
  }

  return (
    <CallerFrame texts={texts} language={language} onLanguage={setLanguage}>
      {content}
    </CallerFrame>
  );
}
