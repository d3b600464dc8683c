import { callerTexts } from '@locus/contract';
import { useCallback, useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { CallerFrame } from './CallerFrame';
import { callerToken, useCallerLink } from './caller-link';
import { LinkEndView, LoadFailedView, LoadingView } from './LinkEndViews';
import { ShareFlow } from './ShareFlow';
import { useCallerLanguage } from './useCallerLanguage';

/**
 * `/share?token=…`, the page a caller opens from the text message. No sign-in: everything it
 * needs is the link's token. It asks for consent, then streams the phone's location.
 */
export function CallerPage() {
  const [search] = useSearchParams();
  const token = callerToken(search);
  const link = useCallerLink(token);
  const [language, setLanguage] = useCallerLanguage(link.data?.language ?? null);
  const texts = callerTexts[language];
  const t = texts.page;

  // In the page's language. Deferred: the shell sets the route's (English) title after this
  // effect, in the same commit.
  const title = t.documentTitle;
  useEffect(() => {
    queueMicrotask(() => {
      document.title = title;
    });
  }, [title]);

  // The socket refused the link after the page loaded: ask again what became of it.
  const [revoked, setRevoked] = useState(false);
  const refetch = link.refetch;
  const onRevoked = useCallback(() => {
    setRevoked(true);
    void refetch();
  }, [refetch]);

  let content;
  if (token === null) {
    content = <LinkEndView end="invalid" t={t} />;
  } else if (link.isPending || (revoked && link.isFetching)) {
    content = <LoadingView t={t} />;
  } else if (link.isError) {
    content = <LoadFailedView t={t} onRetry={() => void refetch()} />;
  } else if (link.data.status !== 'active') {
    content = <LinkEndView end={link.data.status} t={t} announce={revoked} />;
  } else if (revoked) {
    content = <LinkEndView end="invalid" t={t} announce />;
  } else {
    content = (
      <ShareFlow
        key={token}
        token={token}
        agencyName={link.data.agencyName}
        texts={texts}
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
