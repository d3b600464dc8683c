/** @jsxImportSource preact */
import { formatLocationText, smsUri, type CallerPageTexts } from '@locus/contract/caller';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { TextBack } from './caller-link';
import { Icon } from './icons';
import type { ShownFix } from './location-sharing';
import { mayAnnounce, textOffer } from './text-fallback';
import { yourLocationTitleId } from './YourLocation';

/**
 * "Send my location by text", offered when the page's positions have not got through for the
 * link's `afterMs`: a link that opens the phone's messages app with the newest position ready to
 * send to the number that texted the link (see `text-fallback.ts` for when it shows). Its live
 * region is always there, so that screen readers hear of the offer when it appears (politely,
 * at most once a minute).
 */
export function TextFallback({
  t,
  textBack,
  fix,
  unackedSince,
}: {
  t: CallerPageTexts;
  textBack: NonNullable<TextBack>;
  /** The newest position; nothing is offered before the phone has one. */
  fix: ShownFix | null;
  unackedSince: number | null;
}) {
  const [tappedAt, setTappedAt] = useState<number | null>(null);
  // Re-renders when the offer falls due (nothing else changes then).
  const [tick, setTick] = useState(0);
  const offer = textOffer({
    unackedSince,
    now: performance.now(),
    tappedAt,
    afterMs: textBack.afterMs,
  });
  useEffect(() => {
    if (offer.recheckAt === null) return;
    const timer = setTimeout(
      () => setTick((count) => count + 1),
      Math.max(0, offer.recheckAt - performance.now()),
    );
    return () => clearTimeout(timer);
  }, [offer.recheckAt, tick]);

  const show = offer.show && fix !== null;
  const [announced, setAnnounced] = useState(false);
  const lastAnnouncedAt = useRef<number | null>(null);
  useEffect(() => {
    if (!show) {
      setAnnounced(false);
      return;
    }
    const now = performance.now();
    if (!mayAnnounce(lastAnnouncedAt.current, now)) return;
    lastAnnouncedAt.current = now;
    setAnnounced(true);
  }, [show]);

  const onTap = (event: MouseEvent) => {
    const link = event.currentTarget;
    const at = performance.now();
    // Hidden once the browser has followed the link (a link gone from the page before that
    // may not be followed everywhere). Focus, if on the link, goes to the position below.
    setTimeout(() => {
      if (document.activeElement === link) document.getElementById(yourLocationTitleId)?.focus();
      setTappedAt(at);
    }, 0);
  };

  return (
    <>
      <p class="visually-hidden" role="status" aria-live="polite">
        {announced ? `${t.textFallbackBody} ${t.sendByTextButton}` : ''}
      </p>
      {show && fix && (
        <div class="textback">
          <p>{t.textFallbackBody}</p>
          <a
            class="btn"
            href={smsUri(textBack.number, formatLocationText(fix, textBack.code))}
            onClick={onTap}
          >
            <Icon name="message" size={26} />
            <span>{t.sendByTextButton}</span>
          </a>
          <p class="quiet">{t.sendByTextHint}</p>
        </div>
      )}
    </>
  );
}
