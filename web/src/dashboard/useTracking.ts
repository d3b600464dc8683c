import type { CaseTransfer, UntextableNumber } from '@locus/contract';
import type {
  ManySent,
  ManyTarget,
  RequestError,
  SmsLanguage,
  TrackingEvent,
} from '@locus/machines';
import { selectStatusText as selectSocketStatusText, trackingMachine } from '@locus/machines';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useActorRef, useSelector } from '@xstate/react';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { fromPromise } from 'xstate';
import { ApiError, api, expect } from '../app/api';
import { currentUserQueryKey, reloadCurrentUser } from '../app/auth';
import { queryClient } from '../app/query-client';
import { transferStore } from '../app/case-transfer/transfer-store';
import { sessionStore } from '../app/session';
import { DispatcherSocket, type SessionFrame } from './dispatcher-socket';

/**
 * The machine rejects effects with `{ code, message }` and decides from the code (SPEC.md §8);
 * a network failure has no code and counts as any other failed request.
 */
function asRequestError(error: unknown): RequestError {
  if (error instanceof ApiError) return { code: error.code ?? 'unknown', message: error.message };
  return { code: 'unknown', message: error instanceof Error ? error.message : String(error) };
}

async function orRequestError<T>(promise: Promise<T>): Promise<T> {
  try {
    return await promise;
  } catch (error) {
    throw asRequestError(error);
  }
}

/**
 * SPEC.md §4 "Ending tracking" step 1. A failure here must not keep the session open, so it is
 * reported and ending goes on.
 */
async function markWalkthroughSeen(): Promise<void> {
  const { user } = sessionStore.get();
  if (!user || user.hasSeenWalkthrough) return;
  try {
    expect(
      await api.users.patch({ params: { id: user.id }, body: { hasSeenWalkthrough: true } }),
      200,
    );
    const fresh = await reloadCurrentUser();
    queryClient.setQueryData(currentUserQueryKey, fresh.user);
  } catch (error) {
    console.warn('Could not record that the walkthrough was seen', error);
  }
}

/** A socket frame as the machine's `LIVE.*` event. */
function toTrackingEvent(frame: SessionFrame, phoneNumber: string): TrackingEvent | null {
  switch (frame.event) {
    case 'new-location-available': {
      const { seq: _seq, sessionId: _sessionId, callerId, ...location } = frame.data;
      return { type: 'LIVE.LOCATION', callerId, location };
    }
    case 'caller-connected':
      return {
        type: 'LIVE.CALLER_CONNECTED',
        callerId: frame.data.callerId,
        connected: frame.data.connected,
      };
    case 'is-tab-focused':
      return { type: 'LIVE.TAB_FOCUS', callerId: frame.data.callerId, focused: frame.data.focused };
    case 'caller-device': {
      const { seq: _seq, sessionId: _sessionId, callerId, ...device } = frame.data;
      return { type: 'LIVE.DEVICE', callerId, device };
    }
    case 'is-sharing-location':
      return { type: 'LIVE.SHARING', callerId: frame.data.callerId, sharing: frame.data.sharing };
    case 'location-sharing-error':
      return {
        type: 'LIVE.SHARING_ERROR',
        callerId: frame.data.callerId,
        message: frame.data.message,
      };
    case 'sms-status':
      return { type: 'LIVE.SMS_STATUS', callerId: frame.data.callerId, status: frame.data.status };
    case 'sms-received':
      return {
        type: 'LIVE.SMS_RECEIVED',
        from: phoneNumber,
        body: frame.data.body,
        callerId: frame.data.callerId,
        ...(frame.data.location ? { location: frame.data.location } : {}),
      };
    case 'text-location-requested':
      return { type: 'LIVE.TEXT_LOCATION_REQUESTED', callerId: frame.data.callerId };
    case 'case-transfer':
      return {
        type: 'LIVE.CASE_TRANSFER',
        transfer: {
          transferUuid: frame.data.transferUuid,
          status: frame.data.status,
          fromName: frame.data.from.name,
          toName: frame.data.to.name,
        },
      };
    case 'chat-opened':
      return { type: 'CHAT_INITIATED' };
    // The chat panel listens to the socket for these itself (chat/useDispatcherChat.ts).
    case 'chat-message':
    case 'chat-translation':
      return null;
    // Video and photos (issue 19): the media panel listens to the socket for these itself.
    case 'media-requested':
    case 'media-answered':
    case 'video-state':
    case 'photo-added':
      return null;
  }
}

/**
 * The machine logs every number it was not texted ("Invalid number not texted: …"); a number
 * that cannot receive texts goes there with its reason, so the log says why.
 */
function withUntextableExplained({
  callers,
  invalid,
  untextable,
}: {
  callers: ManySent['callers'];
  invalid: string[];
  untextable: UntextableNumber[];
}): ManySent {
  return {
    callers,
    invalid: [
      ...invalid,
      ...untextable.map(
        ({ phoneNumber, reason }) => `${phoneNumber} (${reason}: it cannot receive texts)`,
      ),
    ],
  };
}

const activeSessionQueryKey = ['tracking', 'active-session'] as const;

/** How long socket frames are gathered before the machine (and so React) sees them. */
const FRAME_BATCH_MS = 50;

/**
 * The session's newest transfer when it was accepted by someone other than this user (the case
 * is theirs now); null otherwise, or when the answer cannot be had.
 */
async function transferredAway(uuid: string, phone: string): Promise<CaseTransfer | null> {
  try {
    const checked = await api.caseTransfer.checkTransfer({ params: { uuid, phone } });
    const transfer = checked.status === 200 ? checked.body.transfer : null;
    const me = sessionStore.get().user?.id;
    return transfer && transfer.status === 'accepted' && transfer.to.id !== me ? transfer : null;
  } catch {
    return null;
  }
}

/**
 * The dispatcher's tracking (SPEC.md §4): the tracking machine with its effects provided (REST
 * through TanStack Query mutations, the dispatcher socket), the socket's events fed to it, and
 * the rejoin of an active session after a reload. Everything the page shows is read from the
 * returned actor with the machine's selectors.
 */
export function useTracking({
  onSmsReceived,
  practice = false,
}: {
  onSmsReceived: () => void;
  /** Practice mode (issue 14): the sessions this starts have a simulated caller. */
  practice?: boolean;
}) {
  const [socket] = useState(() => new DispatcherSocket());
  // Practice mode: which session is a practice one (started so here, or said so by the rejoin).
  const practiceRef = useRef(practice);
  practiceRef.current = practice;
  const [practiceSessionId, setPracticeSessionId] = useState<string | null>(null);
  const openStream = useCallback(async (phoneNumber: string) => {
    const asPractice = practiceRef.current;
    const body = asPractice ? { phoneNumber, practice: true } : { phoneNumber };
    const request = expect(await api.tracking.startStream({ body }), 200);
    if (asPractice) setPracticeSessionId(request.uuid);
    return request;
  }, []);

  const startStream = useMutation({ mutationFn: openStream });
  const lookup = useMutation({
    mutationFn: async (connectionRequestUuid: string) =>
      expect(
        await api.tracking.requestLocation({ body: { connectionRequestUuid, language: 'en' } }),
        200,
      ),
  });
  const requestSms = useMutation({
    mutationFn: async (body: { connectionRequestUuid: string; language: SmsLanguage }) =>
      expect(await api.tracking.requestTextMessage({ body }), 200),
  });
  const endTracking = useMutation({
    mutationFn: async (connectionRequestUuid: string | null) => {
      await markWalkthroughSeen();
      if (connectionRequestUuid) {
        expect(
          await api.tracking.setDateTimeCompleted({
            params: { uuid: connectionRequestUuid },
            body: {},
          }),
          200,
        );
      }
    },
  });

  // SPEC.md §4 "Multi-number flows": the session opens with the first number (a call list's
  // first, read from the lists), then every number is texted a link in the chosen language.
  const startMany = useMutation({
    mutationFn: async (target: ManyTarget) => {
      let phoneNumber: string | undefined;
      if ('phoneNumbers' in target) phoneNumber = target.phoneNumbers[0];
      else {
        const numbers = expect(
          await api.callLists.numbers({ params: { listIds: target.callListIds.join(',') } }),
          200,
        );
        phoneNumber = numbers[0]?.phoneNumber;
      }
      if (!phoneNumber) throw { code: 'validation-failed', message: 'No number to locate' };
      const request = await openStream(phoneNumber);
      return {
        connectionRequestUuid: request.uuid,
        token: request.token,
        phoneNumber,
        callerId: request.id,
      };
    },
  });
  const sendMany = useMutation({
    mutationFn: async ({
      connectionRequestUuid,
      target,
      language,
    }: {
      connectionRequestUuid: string;
      target: ManyTarget;
      language: SmsLanguage;
    }) =>
      withUntextableExplained(
        'phoneNumbers' in target
          ? expect(
              await api.tracking.requestAdditionalLocations({
                body: { connectionRequestUuid, newNumbers: target.phoneNumbers, language },
              }),
              200,
            )
          : expect(
              await api.tracking.requestMultipleLocations({
                body: { connectionRequestUuid, callList: target.callListIds, language },
              }),
              200,
            ),
      ),
  });

  const startStreamAsync = startStream.mutateAsync;
  const startManyAsync = startMany.mutateAsync;
  const sendManyAsync = sendMany.mutateAsync;
  const lookupAsync = lookup.mutateAsync;
  const requestSmsAsync = requestSms.mutateAsync;
  const endTrackingAsync = endTracking.mutateAsync;
  const machine = useMemo(
    () =>
      trackingMachine.provide({
        actors: {
          startStream: fromPromise(async ({ input }) => {
            const request = await orRequestError(startStreamAsync(input.phoneNumber));
            return {
              connectionRequestUuid: request.uuid,
              token: request.token,
              callerId: request.id,
            };
          }),
          startMany: fromPromise(({ input }) => orRequestError(startManyAsync(input.target))),
          sendMany: fromPromise(({ input }) => orRequestError(sendManyAsync(input))),
          lookup: fromPromise(({ input }) =>
            orRequestError(lookupAsync(input.connectionRequestUuid)),
          ),
          requestSms: fromPromise(({ input }) => orRequestError(requestSmsAsync(input))),
          endTracking: fromPromise(({ input }) => endTrackingAsync(input.connectionRequestUuid)),
        },
        actions: {
          // The machine has stored the session's uuid by the time it opens the socket.
          openSocket: ({ context }, { token }) => {
            if (context.connectionRequestUuid)
              socket.open({ sessionId: context.connectionRequestUuid, token });
          },
          closeSocket: () => socket.close(),
        },
      }),
    [
      socket,
      startStreamAsync,
      lookupAsync,
      requestSmsAsync,
      endTrackingAsync,
      startManyAsync,
      sendManyAsync,
    ],
  );
  const actor = useActorRef(machine);
  const socketStatus = useSelector(socket.connection, selectSocketStatusText);

  const onSmsReceivedRef = useRef(onSmsReceived);
  useEffect(() => {
    onSmsReceivedRef.current = onSmsReceived;
  }, [onSmsReceived]);

  // Frames are handed to the machine in batches: a rejoin replays a session's whole history,
  // thousands of frames in a burst, and one render per batch instead of per frame keeps that
  // to a blink. Live fixes wait at most one batch window.
  useEffect(() => {
    let pending: { frame: SessionFrame; fromHistory: boolean }[] = [];
    let timer: ReturnType<typeof setTimeout> | undefined;
    const flush = () => {
      clearTimeout(timer);
      timer = undefined;
      const batch = pending;
      pending = [];
      let smsReceived = false;
      for (const { frame, fromHistory } of batch) {
        const phoneNumber = actor.getSnapshot().context.phoneNumber ?? '';
        const event = toTrackingEvent(frame, phoneNumber);
        if (event) actor.send(event);
        if (frame.event === 'sms-received' && !fromHistory) smsReceived = true;
      }
      if (smsReceived) onSmsReceivedRef.current();
    };
    const stopListening = socket.listen({
      onSessionEvent(frame, origin) {
        pending.push({ frame, fromHistory: origin.fromHistory });
        timer ??= setTimeout(flush, FRAME_BATCH_MS);
      },
      onClosedForGood(reason) {
        flush();
        const {
          connectionRequestUuid: uuid,
          phoneNumber,
          transfer: known,
        } = actor.getSnapshot().context;
        // A dispatcher offline when a colleague accepted their case comes back to a revoked
        // token (4401) and never saw the `case-transfer` event: ask, and show the read-only
        // "Transferred to" view rather than an error (and a 4412 without that event learns
        // the colleague's name the same way).
        const ask = reason === 'invalid-token' || (reason === 'transferred' && !known);
        if (!ask || !uuid || !phoneNumber) {
          actor.send({ type: 'LIVE.SESSION_CLOSED', reason });
          return;
        }
        void transferredAway(uuid, phoneNumber).then((transfer) => {
          if (actor.getSnapshot().context.connectionRequestUuid !== uuid) return;
          if (transfer) {
            actor.send({
              type: 'LIVE.CASE_TRANSFER',
              transfer: {
                transferUuid: transfer.transferUuid,
                status: transfer.status,
                fromName: transfer.from.name,
                toName: transfer.to.name,
              },
            });
          }
          actor.send({ type: 'LIVE.SESSION_CLOSED', reason: transfer ? 'transferred' : reason });
        });
      },
    });
    return () => {
      flush();
      stopListening();
    };
  }, [socket, actor]);

  // Leaving the dashboard closes the socket; coming back rejoins through the active session.
  useEffect(() => () => socket.close(), [socket]);

  // SPEC.md §9: a session still active may be rejoined after a reload. Joining without lastSeq
  // replays its whole history, which rebuilds the map and the log.
  const activeSession = useQuery({
    queryKey: activeSessionQueryKey,
    queryFn: async () => expect(await api.tracking.activeSession(), 200).session,
    staleTime: 0,
    gcTime: 0,
    retry: false,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });
  const resumed = useRef(false);
  const session = activeSession.isFetchedAfterMount ? activeSession.data : undefined;
  useEffect(() => {
    if (!session || resumed.current) return;
    resumed.current = true;
    // The dispatcher started locating someone else meanwhile: that wins.
    if (!actor.getSnapshot().hasTag('entry-controls')) return;
    if (session.practice) setPracticeSessionId(session.uuid);
    actor.send({
      type: 'RESUME',
      phoneNumber: session.phoneNumber,
      connectionRequestUuid: session.uuid,
      token: session.token,
      locationType: session.locationType,
      callers: session.callers,
    });
  }, [session, actor]);

  // A case a colleague handed over (the transfer prompt accepted it): open it like a rejoin,
  // whose join without lastSeq replays its whole history. Now if the dashboard is showing,
  // else as soon as it mounts.
  useEffect(() => {
    const openAccepted = () => {
      const accepted = transferStore.get().acceptedSession;
      if (!accepted) return;
      // The rejoin above opened it already.
      if (actor.getSnapshot().context.connectionRequestUuid === accepted.uuid) {
        transferStore.setAcceptedSession(null);
        return;
      }
      // Still on another case: the handed-over one waits until this view is free.
      if (!actor.getSnapshot().hasTag('entry-controls')) return;
      transferStore.setAcceptedSession(null);
      resumed.current = true;
      actor.send({
        type: 'RESUME',
        phoneNumber: accepted.phoneNumber,
        connectionRequestUuid: accepted.uuid,
        token: accepted.token,
        locationType: accepted.locationType,
        callers: accepted.callers,
      });
    };
    openAccepted();
    // The transfer prompt keeps Accept from taking a case while this one is on screen.
    const publishBusy = () => transferStore.setBusy(!actor.getSnapshot().hasTag('entry-controls'));
    publishBusy();
    const stopBusy = actor.subscribe(publishBusy);
    const stopStore = transferStore.subscribe(openAccepted);
    const stopActor = actor.subscribe(openAccepted);
    return () => {
      stopStore();
      stopActor.unsubscribe();
      stopBusy.unsubscribe();
      transferStore.setBusy(null);
    };
  }, [actor]);

  return { actor, socketStatus, socket, practiceSessionId };
}

export type TrackingActor = ReturnType<typeof useTracking>['actor'];
