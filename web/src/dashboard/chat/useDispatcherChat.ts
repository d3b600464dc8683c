import type { ChatQuickReply } from '@locus/contract';
import { callerTexts } from '@locus/contract';
import { selectIsTracking } from '@locus/machines';
import { useMutation } from '@tanstack/react-query';
import { useSelector } from '@xstate/react';
import { useCallback, useEffect, useReducer, useRef, useState } from 'react';
import { api, expect } from '../../app/api';
import type { DispatcherSocket } from '../dispatcher-socket';
import type { TrackingActor } from '../useTracking';
import {
  CHAT_RATE_LIMIT_RETRY_MS,
  chatReducer,
  emptyChat,
  isRetryableRefusal,
  nextToSend,
  type OutgoingChatMessage,
} from './chat-state';

/** A v4 uuid: `crypto.randomUUID` where the page is a secure context, random bytes otherwise. */
function newClientId(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

const frameOf = (message: OutgoingChatMessage) => ({
  callerId: message.callerId,
  clientId: message.clientId,
  ...(message.quickReply !== null ? { quickReply: message.quickReply } : { text: message.text! }),
});

/**
 * The dispatcher's side of the chat with the caller (issue 12): the session's chat events from
 * the dispatcher socket (live, and the join replay that rebuilds it after a reload), the
 * messages on their way (each with its own `clientId`, sent again after every rejoin until the
 * server acks it), opening the chat (`chat-initiated`, once per session), and the unread count
 * and announcements of caller messages.
 */
export function useDispatcherChat({
  socket,
  actor,
  announce,
  numberOf,
  callerIds,
}: {
  socket: DispatcherSocket;
  actor: TrackingActor;
  announce: (text: string) => void;
  numberOf: (callerId: string) => string;
  /** The session's callers in the order they were added (their colours' order). */
  callerIds: readonly string[];
}) {
  const sessionId = useSelector(actor, (snapshot) => snapshot.context.connectionRequestUuid);
  const tracking = useSelector(actor, selectIsTracking);
  const chatInitiated = useSelector(actor, (snapshot) => snapshot.context.chatInitiated);
  const [state, dispatch] = useReducer(chatReducer, null, () => emptyChat(null));
  const [open, setOpen] = useState(false);
  const [selectedCaller, setSelectedCaller] = useState<string | null>(null);

  // Each session starts its chat afresh; ending tracking closes the panel.
  useEffect(() => {
    dispatch({ type: 'session', sessionId });
    if (!sessionId) {
      setOpen(false);
      setSelectedCaller(null);
    }
  }, [sessionId]);

  // Callers known only from the chat (a replay racing the caller list) can be picked too.
  const callers = [...callerIds];
  for (const message of state.messages)
    if (!callers.includes(message.callerId)) callers.push(message.callerId);
  const shownCaller =
    selectedCaller !== null && callers.includes(selectedCaller)
      ? selectedCaller
      : (callers[0] ?? null);

  // The listener reads these without re-subscribing on every render.
  const live = useRef({ state, open, shownCaller, announce, numberOf });
  live.current = { state, open, shownCaller, announce, numberOf };

  // Sent and not yet acked on this join, and refused as rate-limited (waiting to retry).
  const inFlight = useRef(new Set<string>());
  const backingOff = useRef(new Set<string>());
  const retryLater = useRef<(clientId: string) => void>(() => {});
  const pump = useCallback(() => {
    for (const message of nextToSend(
      live.current.state.outgoing,
      inFlight.current,
      backingOff.current,
    )) {
      // Not sent (the socket is down): the next join sends it again.
      if (!socket.sendChat(frameOf(message))) return;
      inFlight.current.add(message.clientId);
    }
  }, [socket]);
  // A new message, an ack or an announced message may make room for the next one.
  useEffect(() => pump(), [state.outgoing, pump]);
  useEffect(() => {
    const timers = new Set<ReturnType<typeof setTimeout>>();
    retryLater.current = (clientId) => {
      backingOff.current.add(clientId);
      const timer = setTimeout(() => {
        timers.delete(timer);
        backingOff.current.delete(clientId);
        pump();
      }, CHAT_RATE_LIMIT_RETRY_MS);
      timers.add(timer);
    };
    return () => {
      for (const timer of timers) clearTimeout(timer);
      // Their timers are gone: the next pump may send them at once.
      backingOff.current.clear();
    };
  }, [pump]);

  useEffect(
    () =>
      socket.listen({
        onSessionEvent(frame, origin) {
          if (frame.event === 'chat-message') {
            const { open: panelOpen, shownCaller: shown } = live.current;
            const seenNow = panelOpen && shown === frame.data.callerId;
            if (frame.data.clientId) inFlight.current.delete(frame.data.clientId);
            dispatch({
              type: 'message',
              data: frame.data,
              unread: !origin.fromHistory && !seenNow,
            });
            if (!origin.fromHistory && frame.data.from === 'caller') {
              const { translation, translationStatus, text, callerId } = frame.data;
              const said =
                translationStatus === 'translated' && translation ? translation.text : text;
              live.current.announce(
                `Chat message from ${live.current.numberOf(callerId)}: ${said}`,
              );
            }
          } else if (frame.event === 'chat-translation') {
            dispatch({ type: 'translation', data: frame.data });
          }
        },
        onClosedForGood() {},
        onChatAck(ack) {
          inFlight.current.delete(ack.clientId);
          dispatch({ type: 'ack', ack });
          // Any other ack changes the state, whose effect sends the next message.
          if (isRetryableRefusal(ack)) {
            retryLater.current(ack.clientId);
            pump();
          }
        },
        onJoined() {
          // Sent while the socket was down, or sent and never acked: the server stores a
          // clientId once, so sending again is always safe, a few at a time.
          inFlight.current.clear();
          pump();
        },
      }),
    [socket, pump],
  );

  const initiate = useMutation({
    mutationFn: async (uuid: string) =>
      expect(await api.chat.chatInitiated({ params: { uuid }, body: {} }), 200),
    onSuccess: () => actor.send({ type: 'CHAT_INITIATED' }),
  });
  const initiateChat = initiate.mutate;

  const openChat = useCallback(() => {
    setOpen(true);
    if (sessionId && !chatInitiated && !initiate.isPending) initiateChat(sessionId);
  }, [sessionId, chatInitiated, initiate.isPending, initiateChat]);
  const closeChat = useCallback(() => setOpen(false), []);

  // What the dispatcher is looking at counts as read.
  useEffect(() => {
    if (open && shownCaller && state.unread[shownCaller])
      dispatch({ type: 'read', callerId: shownCaller });
  }, [open, shownCaller, state.unread]);

  const send = useCallback(
    (callerId: string, content: { text: string } | { quickReply: ChatQuickReply }) => {
      const message: OutgoingChatMessage = {
        clientId: newClientId(),
        callerId,
        text: 'text' in content ? content.text : callerTexts.en.quickReplies[content.quickReply],
        quickReply: 'quickReply' in content ? content.quickReply : null,
        status: 'sending',
        reason: null,
      };
      // Sent by the pump once the state holds it (at most a few in flight).
      dispatch({ type: 'send', message });
    },
    [],
  );

  const unreadTotal = Object.values(state.unread).reduce((sum, count) => sum + count, 0);
  return {
    available: tracking && sessionId !== null,
    sessionId,
    chatInitiated,
    opening: initiate.isPending,
    openError: initiate.error ? initiate.error.message : null,
    open,
    openChat,
    closeChat,
    callers,
    shownCaller,
    selectCaller: setSelectedCaller,
    state,
    unreadTotal,
    send,
  };
}

export type DispatcherChat = ReturnType<typeof useDispatcherChat>;
