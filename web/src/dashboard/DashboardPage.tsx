import {
  selectCallerNumbers,
  selectCallerRows,
  selectHeading,
  selectIsAddingNumbers,
  selectIsMulti,
  selectIsBusy,
  selectIsSendingSms,
  selectIsTracking,
  selectLatestLocation,
  selectLog,
  selectModal,
  selectShowsEndConfirmation,
  selectShowsSmsPrompt,
  selectShowsWaitingModal,
  selectTrackingLifecycleState,
  selectTrackingStatusText,
} from '@locus/machines';
import { Box, Button, Collapse, Group, Paper, Stack, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconMessage } from '@tabler/icons-react';
import { useSelector } from '@xstate/react';
import {
  lazy,
  Suspense,
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import { useSearchParams } from 'react-router';
import { MapHeaderControls } from '../app/layouts/map-header-slot';
import { useSession } from '../app/session';
import { consoleBackground, panelBorder } from '../theme';
import { usePublicConfig } from '../public-site/public-config';
import { callerColours, callerOrder } from './caller-colours';
import { ChatOpenButton, ChatPanel } from './chat/ChatPanel';
import { useDispatcherChat } from './chat/useDispatcherChat';
import { LocateForm, MultiLocateToggle, PHONE_INPUT_ID, TrackingControls } from './HeaderControls';
import { NumbersPanel, type NumberRow } from './NumbersPanel';
import { AskLocationByTextButton } from './AskLocationByText';
import { LATEST_FIX_ID, LatestFixPanel } from './LatestFixPanel';
import { PhonePanel } from './PhoneStatus';
import { LiveAnnouncer, useDashboardAnnouncer } from './LiveAnnouncer';
import { LogPanel } from './LogPanel';
import { MediaPanel } from './media/MediaPanel';
import { useCallerMedia } from './media/useCallerMedia';
import { PracticeBanner } from './PracticeBanner';
import { LocatingUnavailable, locatingBlock } from './LocatingUnavailable';
import { ClearedDomainModal } from './modals/ClearedDomainModal';
import { EmailVerificationModal } from './modals/EmailVerificationModal';
import { EndTrackingModal } from './modals/EndTrackingModal';
import { SmsPromptModal, smsLanguageOptions } from './modals/SmsPromptModal';
import { TrackingListsModal } from './modals/TrackingListsModal';
import { TrackingNumbersModal } from './modals/TrackingNumbersModal';
import { WaitingForLocationModal } from './modals/WaitingForLocationModal';
import { TrackingMap, type ShowCallerRequest } from './TrackingMap';
import { useTracking } from './useTracking';
import { TransferCase } from './transfer/TransferCase';
import { TransferredControls, TransferredNotice } from './transfer/TransferredView';
import { useKeepSessionAlive } from '../app/idle/useKeepSessionAlive';

// The guided tour: its own chunk, downloaded only by someone who has not ended a tracking yet.
const Walkthrough = lazy(() => import('./walkthrough/Walkthrough'));

/**
 * While the dispatcher waits for a first location, what the caller's page reported that explains
 * why none is coming (the newest such log entry), so the waiting modal does not keep spinning
 * in silence.
 */
function callerNotice(log: readonly { message: string }[]): string | null {
  for (let index = log.length - 1; index >= 0; index -= 1) {
    const { message } = log[index]!;
    if (message === 'Caller unable to share location')
      return "The caller's phone did not share its location (permission refused or no GPS signal). Their page shows them how to allow it; ask them to follow it and tap Try again.";
    if (message === 'Caller Stopped Sharing')
      return 'The caller stopped sharing. Ask them to tap Share again on their page.';
    if (message === 'Caller connected') return null;
  }
  return null;
}

type CallerRows = ReturnType<typeof selectCallerRows>;
const sameRows = (a: CallerRows, b: CallerRows) =>
  a.length === b.length &&
  a.every(
    (row, index) =>
      row.callerId === b[index]!.callerId &&
      row.phoneNumber === b[index]!.phoneNumber &&
      row.progress === b[index]!.progress,
  );

/** SPEC.md §2 "Tracking Numbers" and "Tracking Lists": Cancel reloads the page. */
const reloadPage = () => window.location.reload();

/** How often to look whether the focused control has been taken away. */
const FOCUS_CHECK_MS = 200;

/**
 * Tracking steps swap the header's controls and close modals, which can take away the control
 * that had focus; a keyboard user would then be left at the top of the
 * page (WCAG 2.4.3). When that happens, focus goes to what comes next: the latest fix while
 * tracking, the phone field otherwise. A click on the page's background also leaves focus on
 * the body, but the control it left is still there: that is left alone.
 */
function useFocusRescue(tracking: boolean) {
  const trackingRef = useRef(tracking);
  trackingRef.current = tracking;
  // Whether focus is on the latest fix because this put it there (not the dispatcher's click).
  const rescued = useRef(false);
  useEffect(() => {
    let last: Element | null = null;
    const timer = setInterval(() => {
      const active = document.activeElement;
      if (active && active !== document.body) {
        if (active.id !== LATEST_FIX_ID) rescued.current = false;
        last = active;
        return;
      }
      if (!last || document.querySelector('[role="dialog"]')) return;
      // Gone from the page. (A control that is only disabled while its action runs, like End
      // Tracking, either comes back or goes: wait for which.)
      if (last.isConnected) return;
      last = null;
      rescued.current = trackingRef.current;
      document.getElementById(trackingRef.current ? LATEST_FIX_ID : PHONE_INPUT_ID)?.focus();
    }, FOCUS_CHECK_MS);
    return () => clearInterval(timer);
  }, []);
  // Focus put on the latest fix only because its control went away moves on when tracking ends
  // (ending from the confirmation can race the dialog handing focus back).
  useEffect(() => {
    if (tracking || !rescued.current) return;
    rescued.current = false;
    if (document.activeElement === document.getElementById(LATEST_FIX_ID))
      document.getElementById(PHONE_INPUT_ID)?.focus();
  }, [tracking]);
}

/** SPEC.md §9: the large-screen threshold, and how long the SMS Received banner shows. */
const WIDE_SCREEN_QUERY = '(min-width: 960px)';
const SMS_BANNER_MS = 3000;

/** SPEC.md §2: "SMS Received" for three seconds after each text from the caller. */
function useSmsBanner() {
  const [shownAt, setShownAt] = useState<number | null>(null);
  useEffect(() => {
    if (shownAt === null) return;
    const timer = setTimeout(() => setShownAt(null), SMS_BANNER_MS);
    return () => clearTimeout(timer);
  }, [shownAt]);
  const show = useCallback(() => setShownAt(Date.now()), []);
  return { visible: shownAt !== null, shownAt, show };
}

/** Seen, not heard: the live announcer says "SMS Received" in its turn. */
function SmsReceivedBanner() {
  return (
    <Paper
      pos="absolute"
      top={12}
      left="50%"
      px="md"
      py={8}
      bg="teal.7"
      c="white"
      shadow="md"
      style={{ transform: 'translateX(-50%)', zIndex: 150 }}
    >
      <Text fw={700} size="sm" style={{ display: 'flex', alignItems: 'center', gap: 8 }}>
        <IconMessage size={18} aria-hidden />
        SMS Received
      </Text>
    </Paper>
  );
}

/** Wide screens: a column beside the map. Narrow ones: a sheet under it that folds away. */
function DetailsPanel({
  wide,
  status,
  children,
}: {
  wide: boolean;
  status: ReactNode;
  children: ReactNode;
}) {
  const [open, setOpen] = useState(true);
  if (wide) {
    return (
      <Stack
        component="aside"
        aria-label="Tracking details"
        w={380}
        p="sm"
        gap="sm"
        bg={consoleBackground}
        style={{
          flex: '0 0 auto',
          minHeight: 0,
          borderLeft: panelBorder,
        }}
      >
        {status}
        {children}
      </Stack>
    );
  }
  return (
    <Box
      component="aside"
      aria-label="Tracking details"
      bg={consoleBackground}
      style={{ flex: '0 0 auto', borderTop: panelBorder }}
    >
      <Box
        px="sm"
        py={6}
        style={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between' }}
      >
        {status}
        <Button
          variant="subtle"
          size="compact-sm"
          aria-expanded={open}
          aria-controls="tracking-details-sheet"
          onClick={() => setOpen((value) => !value)}
        >
          {open ? 'Hide details' : 'Show details'}
        </Button>
      </Box>
      <Collapse expanded={open}>
        <Stack
          id="tracking-details-sheet"
          gap="sm"
          px="sm"
          pb="sm"
          style={{ maxHeight: '40dvh', overflowY: 'auto' }}
        >
          {children}
        </Stack>
      </Collapse>
    </Box>
  );
}

/**
 * /dashboard (SPEC.md §2, §4 "Tracking (dispatcher)"): locate one number, follow it on the map,
 * read the log and the latest fix. Everything shown, status text and modals included, is read
 * from the tracking machine; this page only lays it out and forwards the dispatcher's choices.
 */
export function DashboardPage() {
  const { user, teams } = useSession();
  const tiles = usePublicConfig().data?.map;
  const wide = useMediaQuery(WIDE_SCREEN_QUERY, true, { getInitialValueInEffect: false });
  const banner = useSmsBanner();
  // Practice mode (issue 14): /dashboard?practice=1, from the training page.
  const practiceMode = useSearchParams()[0].get('practice') === '1';
  const { actor, socketStatus, socket, practiceSessionId } = useTracking({
    onSmsReceived: banner.show,
    practice: practiceMode,
  });

  const tracking = useSelector(actor, selectIsTracking);
  // A dispatcher following a live caller is working even without touching anything.
  useKeepSessionAlive(tracking);
  const busy = useSelector(actor, selectIsBusy);
  const heading = useSelector(actor, selectHeading);
  const log = useSelector(actor, selectLog);
  const modal = useSelector(actor, selectModal);
  const showsSmsPrompt = useSelector(actor, selectShowsSmsPrompt);
  const sendingSms = useSelector(actor, selectIsSendingSms);
  const showsWaiting = useSelector(actor, selectShowsWaitingModal);
  const showsEndConfirmation = useSelector(actor, selectShowsEndConfirmation);
  const status = useSelector(actor, (snapshot) => selectTrackingStatusText(snapshot, socketStatus));
  // The session's state in the server's session-lifecycle names, on the status line, so that
  // support staff and tests compare it with `tracking_sessions.lifecycle` word for word.
  const lifecycle = useSelector(actor, selectTrackingLifecycleState);
  const phoneNumber = useSelector(actor, (snapshot) => snapshot.context.phoneNumber);
  const language = useSelector(actor, (snapshot) => snapshot.context.language);
  const smsFailed = useSelector(
    actor,
    (snapshot) => snapshot.context.statusText === 'Unable to send SMS request for location',
  );
  const optedOut = useSelector(
    actor,
    (snapshot) => snapshot.context.requestError?.code === 'sms-opted-out',
  );
  const requestError = useSelector(actor, (snapshot) => snapshot.context.requestError);
  // An account on no active team (or not registered) is told so instead of being offered Locate.
  const blocked = locatingBlock(user, teams, requestError?.code);
  // Refusals that sending again will not change: the number, or the SMS limits (the API's words).
  const smsRefusal =
    requestError?.code === 'untextable-number' || requestError?.code === 'rate-limited'
      ? requestError.message
      : null;
  const locatingTeamId = teams.find((team) => team.isActive)?.id ?? null;
  const callers = useSelector(actor, (snapshot) => snapshot.context.callers);
  const connectionRequestUuid = useSelector(
    actor,
    (snapshot) => snapshot.context.connectionRequestUuid,
  );
  const streamStarted = connectionRequestUuid !== null;
  const practiceSession = streamStarted && practiceSessionId === connectionRequestUuid;
  // Marked while in practice mode and whenever a practice session shows (a rejoined one too).
  const showsPractice = practiceSession || (practiceMode && !streamStarted);
  const multi = useSelector(actor, selectIsMulti);
  const adding = useSelector(actor, selectIsAddingNumbers);
  const callerNumbers = useSelector(actor, selectCallerNumbers);
  const callerRows = useSelector(actor, selectCallerRows, sameRows);
  const [shownCaller, setShownCaller] = useState<ShowCallerRequest | null>(null);
  const showCallerOnMap = useCallback(
    (callerId: string) => setShownCaller({ callerId, at: Date.now() }),
    [],
  );
  const [multiModal, setMultiModal] = useState<'numbers' | 'lists' | 'add' | null>(null);
  const numberRows = useMemo(() => {
    const colours = callerColours(callerRows.map((row) => row.callerId));
    return callerRows.map((row): NumberRow => ({
      ...row,
      colour: colours[row.callerId]!,
      latest: callers[row.callerId]?.locations.at(-1) ?? null,
      fixCount: callers[row.callerId]?.locations.length ?? 0,
      device: callers[row.callerId]?.device ?? null,
      connectionRequestUuid: tracking ? connectionRequestUuid : null,
    }));
  }, [callerRows, callers, tracking, connectionRequestUuid]);
  const [numberInput, setNumberInput] = useState('');
  // Once the session exists the number has done its job; the next Locate starts empty.
  useEffect(() => {
    if (streamStarted) setNumberInput('');
  }, [streamStarted]);
  // The selector builds a new object each time; the fix itself says whether anything changed.
  const latest = useSelector(
    actor,
    selectLatestLocation,
    (a, b) => a?.location === b?.location,
  )?.location;
  // One number: its phone's report has a panel of its own (many numbers: in each row).
  const singleDevice = useMemo(
    () => Object.values(callers).find((caller) => caller.device)?.device ?? null,
    [callers],
  );
  const numberOfCaller = useCallback(
    (callerId: string) => callerNumbers[callerId] ?? phoneNumber ?? '',
    [callerNumbers, phoneNumber],
  );
  const announcer = useDashboardAnnouncer({ log, callers, numberOf: numberOfCaller });
  const { announce } = announcer;
  // Issue 12: the chat with the caller, one caller at a time in their colour.
  const chatCallerIds = useMemo(
    () => callerOrder(callerNumbers, Object.keys(callers)),
    [callerNumbers, callers],
  );
  const chatColours = useMemo(() => callerColours(chatCallerIds), [chatCallerIds]);
  const chat = useDispatcherChat({
    socket,
    actor,
    announce,
    numberOf: numberOfCaller,
    callerIds: chatCallerIds,
  });
  // Issue 19: video and photos from the caller the chat shows (the only one, with one number).
  const media = useCallerMedia({ socket, actor, callerId: chat.shownCaller });
  const mediaCallerConnected =
    chat.shownCaller !== null && callers[chat.shownCaller]?.connected === true;
  // The machine's log and the media panel's, in time order (a stable sort keeps each one's).
  const fullLog = useMemo(
    () => (media.log.length === 0 ? log : [...log, ...media.log].sort((a, b) => a.time - b.time)),
    [log, media.log],
  );
  useEffect(() => {
    if (banner.shownAt !== null) announce('SMS Received');
  }, [banner.shownAt, announce]);
  const languageLabel = smsLanguageOptions.find((option) => option.value === language)!.label;

  // One modal at a time: an error modal or the end confirmation covers the flow's own.
  const errorModalOpen = modal !== null;
  useFocusRescue(tracking);
  // The case went to a colleague (issue 12): the view stays, read-only.
  const transferredTo = useSelector(actor, (snapshot) => snapshot.context.transferredTo);
  const flowModalsHidden = errorModalOpen || showsEndConfirmation || transferredTo !== null;
  // SPEC.md §3 hasSeenWalkthrough (set when the first tracking ends, useTracking): the tour,
  // only while the controls it points at are there and nothing else asks for attention.
  const showsTour =
    user !== null &&
    !user.hasSeenWalkthrough &&
    !tracking &&
    !busy &&
    !blocked &&
    multiModal === null &&
    !errorModalOpen &&
    !showsEndConfirmation;

  const statusLine = (
    <Group gap="xs" wrap="nowrap">
      <Text size="sm" fw={600} aria-live="polite" data-lifecycle={lifecycle ?? undefined}>
        Status: {transferredTo !== null ? `Transferred to ${transferredTo}` : status}
      </Text>
      {tracking && transferredTo === null && status === 'Unable to Reconnect' && (
        <Button size="compact-xs" variant="light" onClick={socket.reconnectNow}>
          Reconnect
        </Button>
      )}
    </Group>
  );

  return (
    <Box
      style={{
        flex: 1,
        minHeight: 0,
        display: 'flex',
        flexDirection: wide ? 'row' : 'column',
      }}
    >
      <MapHeaderControls>
        {tracking && transferredTo !== null ? (
          <TransferredControls
            transferredTo={transferredTo}
            onLeave={() => actor.send({ type: 'LEAVE_TRANSFERRED' })}
          />
        ) : tracking ? (
          <TrackingControls
            heading={heading}
            ending={busy && !sendingSms}
            onEnd={() => actor.send({ type: 'END_TRACKING' })}
            onAddNumbers={
              streamStarted && !practiceSession ? () => setMultiModal('add') : undefined
            }
            adding={adding}
          />
        ) : blocked ? null : (
          <Group gap={6} wrap="nowrap" style={{ minWidth: 0 }}>
            <LocateForm
              value={numberInput}
              onChange={setNumberInput}
              onLocate={(number) => actor.send({ type: 'LOCATE', phoneNumber: number })}
            />
            <MultiLocateToggle
              onLocateNumbers={() => setMultiModal('numbers')}
              onLocateByList={() => setMultiModal('lists')}
            />
          </Group>
        )}
      </MapHeaderControls>

      <Box pos="relative" style={{ flex: 1, minHeight: 0, minWidth: 0, display: 'flex' }}>
        <TrackingMap
          callers={callers}
          callerNumbers={callerNumbers}
          multi={multi}
          phoneNumber={phoneNumber}
          tiles={tiles}
          tracking={tracking}
          showCaller={shownCaller}
        />
        {banner.visible && <SmsReceivedBanner />}
        {showsPractice && <PracticeBanner idle={!tracking} />}
        {blocked && !tracking && <LocatingUnavailable reason={blocked} />}
      </Box>
      <LiveAnnouncer text={announcer.text} />

      <DetailsPanel wide={wide} status={statusLine}>
        {multi && <NumbersPanel rows={numberRows} onShow={showCallerOnMap} />}
        <LatestFixPanel location={latest ?? null} />
        {tracking && transferredTo !== null && <TransferredNotice transferredTo={transferredTo} />}
        {!practiceSession &&
          tracking &&
          transferredTo === null &&
          connectionRequestUuid &&
          phoneNumber && (
            <TransferCase
              sessionUuid={connectionRequestUuid}
              phoneNumber={phoneNumber}
              announce={announce}
            />
          )}
        {!practiceSession &&
          !multi &&
          tracking &&
          transferredTo === null &&
          connectionRequestUuid &&
          phoneNumber && (
            <AskLocationByTextButton
              connectionRequestUuid={connectionRequestUuid}
              phoneNumber={phoneNumber}
            />
          )}
        {!multi && singleDevice && <PhonePanel device={singleDevice} />}
        {tracking && transferredTo === null && (
          <MediaPanel media={media} connected={mediaCallerConnected} />
        )}
        {transferredTo === null && <ChatOpenButton chat={chat} />}
        {transferredTo === null && (
          <ChatPanel chat={chat} colours={chatColours} numberOf={numberOfCaller} />
        )}
        <LogPanel
          entries={fullLog}
          tracking={tracking}
          fill={wide}
          numbers={multi ? callerRows : undefined}
        />
      </DetailsPanel>

      <SmsPromptModal
        opened={(showsSmsPrompt || sendingSms) && !flowModalsHidden}
        phoneNumber={phoneNumber}
        sending={sendingSms}
        smsFailed={smsFailed}
        optedOut={smsFailed && optedOut}
        refusal={smsFailed ? smsRefusal : null}
        onSend={(chosen) => actor.send({ type: 'SEND_SMS', language: chosen })}
        onDecline={() => actor.send({ type: 'DECLINE_SMS' })}
      />
      <WaitingForLocationModal
        opened={showsWaiting && !flowModalsHidden}
        phoneNumber={multi && callerRows.length > 1 ? `${callerRows.length} numbers` : phoneNumber}
        languageLabel={languageLabel}
        callerNotice={callerNotice(log)}
        onStop={() => actor.send({ type: 'END_TRACKING' })}
      />
      <TrackingNumbersModal
        opened={multiModal === 'numbers' || multiModal === 'add'}
        onSend={(phoneNumbers, chosen) => {
          if (multiModal === 'add')
            actor.send({ type: 'ADD_NUMBERS', phoneNumbers, language: chosen });
          else actor.send({ type: 'LOCATE_MANY', target: { phoneNumbers }, language: chosen });
          setMultiModal(null);
        }}
        onCancel={multiModal === 'add' ? () => setMultiModal(null) : reloadPage}
      />
      <TrackingListsModal
        opened={multiModal === 'lists'}
        teamId={locatingTeamId}
        onSend={(callListIds, chosen) => {
          actor.send({ type: 'LOCATE_MANY', target: { callListIds }, language: chosen });
          setMultiModal(null);
        }}
        onCancel={reloadPage}
      />
      <EndTrackingModal
        opened={showsEndConfirmation && !errorModalOpen}
        phoneNumber={phoneNumber}
        chatSessionId={chat.chatInitiated ? chat.sessionId : null}
        onCancel={() => actor.send({ type: 'CANCEL_END' })}
        onConfirm={() => actor.send({ type: 'CONFIRM_END' })}
      />
      <EmailVerificationModal
        opened={modal === 'email-verification'}
        email={user?.email ?? null}
        onClose={() => actor.send({ type: 'DISMISS_MODAL' })}
      />
      <ClearedDomainModal
        opened={modal === 'cleared-domain'}
        email={user?.email ?? null}
        onClose={() => actor.send({ type: 'DISMISS_MODAL' })}
      />
      {showsTour && (
        <Suspense fallback={null}>
          <Walkthrough />
        </Suspense>
      )}
    </Box>
  );
}
