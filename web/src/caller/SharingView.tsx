/** @jsxImportSource preact */
import type { CallerTexts } from '@locus/contract/caller';
import { useMemo } from 'preact/hooks';
import { useAnnouncement } from './announcer';
import type { TextBack } from './caller-link';
import type { ConnectionState } from './caller-socket';
import { CallerButton } from './CallerButton';
import { CallerHeading } from './CallerHeading';
import { Icon } from './icons';
import type { SharingState } from './location-sharing';
import { TextFallback } from './TextFallback';
import { YourLocation } from './YourLocation';

function connectionText(texts: CallerTexts, connection: ConnectionState): string {
  const t = texts.page;
  return connection === 'connected'
    ? t.connected
    : connection === 'reconnecting'
      ? t.reconnecting
      : t.connecting;
}

/**
 * Finding the phone (no fix yet) or sharing it: the connection, the offer to text the position
 * when it does not get through, the newest position to read out, Stop sharing.
 */
export function SharingView({
  texts,
  state,
  textBack,
  onStop,
}: {
  texts: CallerTexts;
  state: SharingState;
  textBack: TextBack;
  onStop: () => void;
}) {
  const t = texts.page;
  const time = useMemo(
    () =>
      new Intl.DateTimeFormat(texts.locale, {
        hour: 'numeric',
        minute: '2-digit',
        second: '2-digit',
      }),
    [texts.locale],
  );
  const { phase, lastFix, problem, connection, queued, unackedSince } = state;
  const sharing = phase === 'sharing' && lastFix !== null;
  const problemText =
    problem === null ? null : problem === 'timeout' ? t.positionTimeout : t.positionUnavailable;
  // One polite sentence for the view: a lost position while it lasts (polite, not an alert:
  // indoors it can come back at every 30 s watch timeout, and the caller is on the phone with
  // the dispatcher), else when sharing begins, when the connection drops and when it is back;
  // never for a new position. The first moments (finding, connecting) are the title's, which
  // the caller lands on after the tap.
  useAnnouncement(
    'status',
    problemText ??
      (connection === 'reconnecting' ? t.reconnecting : sharing ? t.sharingTitle : null),
  );

  return (
    <>
      <CallerHeading
        // The same heading once the first fix arrives (focus stays on it); the status says so.
        title={sharing ? t.sharingTitle : t.startingStatus}
        icon="currentLocation"
        tone={sharing ? 'teal' : 'navy'}
        announce
      >
        {sharing ? t.sharingBody : t.allowHint}
      </CallerHeading>

      <div class="card stack">
        <p class="status">
          <span class={`dot ${connection}`} aria-hidden="true" />
          <strong>{connectionText(texts, connection)}</strong>
        </p>
        {queued > 0 && connection !== 'connected' && <p class="queued">{t.queuedFixes(queued)}</p>}
      </div>

      {textBack && (
        <TextFallback t={t} textBack={textBack} fix={lastFix} unackedSince={unackedSince} />
      )}

      {problemText && (
        <div class="alert">
          <Icon name="alertTriangle" size={22} />
          <p>{problemText}</p>
        </div>
      )}

      {lastFix && <YourLocation t={t} fix={lastFix} time={time.format(lastFix.capturedAt)} />}

      <CallerButton variant="outline" icon="playerStop" onClick={onStop}>
        {t.stopButton}
      </CallerButton>
    </>
  );
}
