/** @jsxImportSource preact */
import type { CallerPageTexts } from '@locus/contract/caller';
import { useAnnouncement } from './announcer';
import { CallerButton } from './CallerButton';
import { CallerHeading, type Tone } from './CallerHeading';
import type { LinkEnd } from './caller-link';
import type { IconName } from './icons';

/** "If you still need help, call 911." under every page where sharing cannot go on. */
export function CallForHelp({ t }: { t: CallerPageTexts }) {
  return <p class="help">{t.callForHelp}</p>;
}

type TextKey = {
  [K in keyof CallerPageTexts]: CallerPageTexts[K] extends string ? K : never;
}[keyof CallerPageTexts];

const ends: Record<LinkEnd, { title: TextKey; body: TextKey; icon: IconName; tone: Tone }> = {
  ended: { title: 'endedTitle', body: 'endedBody', icon: 'circleCheck', tone: 'teal' },
  expired: { title: 'expiredTitle', body: 'expiredBody', icon: 'clockOff', tone: 'gray' },
  stopped: { title: 'optedOutTitle', body: 'optedOutBody', icon: 'messageOff', tone: 'gray' },
  invalid: { title: 'invalidTitle', body: 'invalidBody', icon: 'linkOff', tone: 'gray' },
};

/** The link no longer works: what happened, and what to do. */
export function LinkEndView({
  end,
  t,
  announce = false,
}: {
  end: LinkEnd;
  t: CallerPageTexts;
  announce?: boolean;
}) {
  const { title, body, icon, tone } = ends[end];
  // Told when the link stops working while the page is open (the dispatcher ended it, …).
  useAnnouncement('status', announce ? t[body] : null);
  return (
    <>
      <CallerHeading title={t[title]} icon={icon} tone={tone} announce={announce}>
        {t[body]}
      </CallerHeading>
      <CallForHelp t={t} />
    </>
  );
}

export function LoadingView({ t }: { t: CallerPageTexts }) {
  return (
    <div class="loading" role="status" aria-live="polite">
      <span class="spinner" aria-hidden="true" />
      <p class="lead">{t.loading}</p>
    </div>
  );
}

export function LoadFailedView({ t, onRetry }: { t: CallerPageTexts; onRetry: () => void }) {
  useAnnouncement('alert', t.loadFailedBody);
  return (
    <>
      <CallerHeading title={t.loadFailedTitle} icon="wifiOff" tone="gray">
        {t.loadFailedBody}
      </CallerHeading>
      <CallerButton icon="refresh" onClick={onRetry}>
        {t.tryAgainButton}
      </CallerButton>
      <CallForHelp t={t} />
    </>
  );
}
