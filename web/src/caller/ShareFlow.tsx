/** @jsxImportSource preact */
import type { CallerPageTexts, CallerTexts, SmsLanguage } from '@locus/contract/caller';
import { useEffect, useRef, useState } from 'preact/hooks';
import { useAnnouncement } from './announcer';
import { CallerChat, type ChatState } from './caller-chat';
import { ChatPanel } from './ChatPanel';
import type { TextBack } from './caller-link';
import { CallerHeading } from './CallerHeading';
import type { FixQueue } from './fix-queue';
import { CallForHelp, LinkEndView, LoadingView } from './LinkEndViews';
import { LocationSharing, type SharingState } from './location-sharing';
import { CallerMedia, type MediaState } from './media/caller-media';
import { MediaPanel } from './media/MediaPanel';
import { PermissionDeniedView } from './PermissionDeniedView';
import { ShareRequestView } from './ShareRequestView';
import { SharingView } from './SharingView';
import { StoppedView } from './StoppedView';

/**
 * The caller's sharing for one link, resumed when the page opens and stopped when it goes away,
 * and the chat with the dispatcher, which rides on the same socket.
 */
function useLocationSharing(token: string, queue: FixQueue) {
  const [sharing] = useState(() => new LocationSharing(token, queue));
  const [chat] = useState(() => new CallerChat(token, sharing.sendChat));
  const [state, setState] = useState<SharingState>(sharing.getState);
  const [chatState, setChatState] = useState<ChatState>(chat.getState);
  // Video and photos (issue 19) ride on the same socket.
  const [media] = useState(() => new CallerMedia(token, sharing.sendMedia));
  const [mediaState, setMediaState] = useState<MediaState>(media.getState);
  useEffect(() => {
    const unsubscribe = media.subscribe(() => setMediaState(media.getState()));
    sharing.attachMedia(media);
    return () => {
      unsubscribe();
      media.destroy();
    };
  }, [sharing, media]);
  useEffect(() => {
    const unsubscribe = sharing.subscribe(() => setState(sharing.getState()));
    const unsubscribeChat = chat.subscribe(() => setChatState(chat.getState()));
    sharing.attachChat(chat.hooks);
    sharing.resume();
    return () => {
      unsubscribe();
      unsubscribeChat();
      sharing.destroy();
    };
  }, [sharing, chat]);
  // The request ended (or the link was refused): the camera goes off with it.
  const over = state.phase === 'ended' || state.phase === 'revoked';
  useEffect(() => {
    if (over) media.destroy();
  }, [over, media]);
  return {
    state,
    start: sharing.start,
    stop: sharing.stop,
    chatState,
    sendChat: chat.send,
    media,
    mediaState,
  };
}

/** Phases in which the request is still open: the chat shows below whatever they show. */
const chatPhases: ReadonlySet<SharingState['phase']> = new Set([
  'idle',
  'starting',
  'sharing',
  'stopped',
  'denied',
  'unsupported',
]);

/** An active link: the request, then sharing, stopping, refusals, until the request ends. */
export function ShareFlow({
  token,
  queue,
  agencyName,
  textBack,
  texts,
  language,
  onRevoked,
}: {
  token: string;
  queue: FixQueue;
  agencyName: string;
  /** Where the page may offer to text its position; null: never offered. */
  textBack: TextBack;
  texts: CallerTexts;
  /** The language the page shows (a consent receipt names it). */
  language: SmsLanguage;
  /** The server refused the link: the page asks the API why. */
  onRevoked: () => void;
}) {
  const { state, start, stop, chatState, sendChat, media, mediaState } = useLocationSharing(
    token,
    queue,
  );
  const t = texts.page;

  const revoked = state.phase === 'revoked';
  const reported = useRef(false);
  useEffect(() => {
    if (!revoked || reported.current) return;
    reported.current = true;
    onRevoked();
  }, [revoked, onRevoked]);

  return (
    <>
      {state.connection === 'superseded' && <OpenInAnotherTab t={t} />}
      {/* Above the location views: the request and the Camera on banner are what matters now. */}
      {chatPhases.has(state.phase) && <MediaPanel t={t} media={media} state={mediaState} />}
      <Phase
        state={state}
        texts={texts}
        agencyName={agencyName}
        textBack={textBack}
        start={start}
        stop={stop}
        language={language}
      />
      {chatPhases.has(state.phase) && <ChatPanel t={t} chat={chatState} onSend={sendChat} />}
      <DebugPanel t={t} state={state} />
    </>
  );
}

function Phase({
  state,
  texts,
  agencyName,
  textBack,
  start,
  stop,
  language,
}: {
  state: SharingState;
  texts: CallerTexts;
  agencyName: string;
  textBack: TextBack;
  start: LocationSharing['start'];
  language: SmsLanguage;
  stop: () => void;
}) {
  const t = texts.page;
  switch (state.phase) {
    case 'idle':
      return (
        <ShareRequestView
          t={t}
          agencyName={agencyName}
          onShare={() => start({ screen: 'request', language })}
        />
      );
    case 'starting':
    case 'sharing':
      return <SharingView texts={texts} state={state} textBack={textBack} onStop={stop} />;
    case 'stopped':
      return <StoppedView t={t} onShareAgain={() => start({ screen: 'stopped', language })} />;
    case 'denied':
      return (
        <PermissionDeniedView t={t} onTryAgain={() => start({ screen: 'denied', language })} />
      );
    case 'unsupported':
      return <UnsupportedView t={t} />;
    case 'ended':
      return <LinkEndView end="ended" t={t} announce />;
    case 'revoked':
      return <LoadingView t={t} />;
  }
}

/**
 * Another tab on this link holds the connection (close 4409) and this one waits for the caller
 * to come back to it: said calmly, since nothing is wrong and nothing is lost.
 */
function OpenInAnotherTab({ t }: { t: CallerPageTexts }) {
  useAnnouncement('status', t.openInAnotherTab);
  return (
    <div class="card">
      <p>{t.openInAnotherTab}</p>
    </div>
  );
}

/** This browser has no location to give: where to open the link instead. */
function UnsupportedView({ t }: { t: CallerPageTexts }) {
  useAnnouncement('alert', t.unsupportedBody);
  return (
    <>
      <CallerHeading title={t.unsupportedTitle} icon="deviceMobileOff" tone="gray" announce>
        {t.unsupportedBody}
      </CallerHeading>
      <CallForHelp t={t} />
    </>
  );
}

/**
 * Folded away: what support staff ask about when a caller says "it didn't work" (the connection,
 * positions waiting on the phone, positions the server refused and the page dropped).
 */
function DebugPanel({ t, state }: { t: CallerPageTexts; state: SharingState }) {
  return (
    <details class="debug">
      <summary>{t.debugTitle}</summary>
      <ul>
        <li>connection: {state.connection}</li>
        <li>queued: {state.queued}</li>
        {state.notes.map((note, index) => (
          <li key={index}>{note}</li>
        ))}
      </ul>
    </details>
  );
}
