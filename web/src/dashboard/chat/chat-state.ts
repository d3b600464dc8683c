import type { ChatQuickReply, ChatTranslationStatus, SessionEventData } from '@locus/contract';
import type { ChatAckFrame } from '../dispatcher-socket';

/** A stored message of the session's chat, as its `chat-message` event (and later `chat-translation`) told it. */
export type StoredChatMessage = Omit<SessionEventData<'chat-message'>, 'sessionId'>;

/**
 * A message this dispatcher sent that the server has not announced yet: `sending` until the
 * `chat-ack` (and sent again after every rejoin), `stored` between the ack and its
 * `chat-message`, or `refused` with the server's reason (not sent again).
 */
export interface OutgoingChatMessage {
  clientId: string;
  callerId: string;
  text: string | null;
  quickReply: ChatQuickReply | null;
  status: 'sending' | 'stored' | 'refused';
  reason: string | null;
}

export interface ChatState {
  /** The session these messages belong to; frames of any other session are ignored. */
  sessionId: string | null;
  /** Oldest first, by seq. */
  messages: StoredChatMessage[];
  outgoing: OutgoingChatMessage[];
  /** Caller messages that arrived live while the chat panel was closed, per caller. */
  unread: Record<string, number>;
}

export const emptyChat = (sessionId: string | null): ChatState => ({
  sessionId,
  messages: [],
  outgoing: [],
  unread: {},
});

export type ChatAction =
  | { type: 'session'; sessionId: string | null }
  | {
      type: 'message';
      data: SessionEventData<'chat-message'>;
      /** Live (not a replay) and the panel closed: counts as unread. */
      unread: boolean;
    }
  | { type: 'translation'; data: SessionEventData<'chat-translation'> }
  | { type: 'send'; message: OutgoingChatMessage }
  | { type: 'ack'; ack: ChatAckFrame }
  | { type: 'read'; callerId: string };

/** Messages sent and not yet acked: the server allows a burst of 5 and refuses the rest. */
export const CHAT_MAX_IN_FLIGHT = 3;
/** A message refused as 'rate-limited' is sent again after this long. */
export const CHAT_RATE_LIMIT_RETRY_MS = 2_000;

/**
 * The messages to send now, oldest first: those still `sending` that are neither awaiting an ack
 * (`inFlight`) nor waiting out a rate-limit (`backingOff`), while fewer than CHAT_MAX_IN_FLIGHT
 * await an ack. A resend after a long outage so stays inside the server's burst.
 */
export function nextToSend(
  outgoing: readonly OutgoingChatMessage[],
  inFlight: ReadonlySet<string>,
  backingOff: ReadonlySet<string>,
): OutgoingChatMessage[] {
  const room = CHAT_MAX_IN_FLIGHT - inFlight.size;
  if (room <= 0) return [];
  return outgoing
    .filter(
      (message) =>
        message.status === 'sending' &&
        !inFlight.has(message.clientId) &&
        !backingOff.has(message.clientId),
    )
    .slice(0, room);
}

/** A refusal the client retries rather than shows: the server's rate limit, not the message. */
export const isRetryableRefusal = (ack: ChatAckFrame): boolean =>
  ack.outcome === 'refused' && ack.reason === 'rate-limited';

export function chatReducer(state: ChatState, action: ChatAction): ChatState {
  switch (action.type) {
    case 'session':
      return action.sessionId === state.sessionId ? state : emptyChat(action.sessionId);
    case 'message': {
      const { sessionId, ...message } = action.data;
      if (sessionId !== state.sessionId) return state;
      // The socket passes each seq on once; a message id seen before is still not shown twice.
      if (state.messages.some((known) => known.messageId === message.messageId)) return state;
      const outgoing =
        message.clientId === null
          ? state.outgoing
          : state.outgoing.filter((pending) => pending.clientId !== message.clientId);
      const unread =
        action.unread && message.from === 'caller'
          ? { ...state.unread, [message.callerId]: (state.unread[message.callerId] ?? 0) + 1 }
          : state.unread;
      return { ...state, messages: [...state.messages, message], outgoing, unread };
    }
    case 'translation': {
      const { sessionId, messageId, translation, translationStatus } = action.data;
      if (sessionId !== state.sessionId) return state;
      return {
        ...state,
        messages: state.messages.map((message) =>
          message.messageId === messageId
            ? { ...message, translation, translationStatus }
            : message,
        ),
      };
    }
    case 'send':
      return { ...state, outgoing: [...state.outgoing, action.message] };
    case 'ack': {
      const { clientId, outcome, reason } = action.ack;
      // Rate-limited: still sending (the hook sends it again after a pause).
      if (isRetryableRefusal(action.ack)) return state;
      // Stored and already announced: the message itself is shown, the placeholder goes.
      if (outcome === 'stored' && state.messages.some((message) => message.clientId === clientId))
        return { ...state, outgoing: state.outgoing.filter((o) => o.clientId !== clientId) };
      return {
        ...state,
        outgoing: state.outgoing.map((pending) =>
          pending.clientId !== clientId
            ? pending
            : outcome === 'stored'
              ? { ...pending, status: 'stored' as const }
              : {
                  ...pending,
                  status: 'refused' as const,
                  reason: reason ?? 'The message was not sent.',
                },
        ),
      };
    }
    case 'read': {
      if (!state.unread[action.callerId]) return state;
      const { [action.callerId]: _read, ...unread } = state.unread;
      return { ...state, unread };
    }
  }
}

/** What a reader sees of a message by default, and what one tap shows instead. */
export interface ShownMessage {
  /** The text in the dispatcher's language (English) where there is one. */
  primary: string;
  /** The other language's version, one tap away; null when there is none. */
  alternate: string | null;
  /** "Show original" or "Show translation": the name of the tap that swaps them. */
  alternateLabel: string;
  primaryLabel: string;
  /** A note under the text: still translating, or no translation could be made. */
  note: string | null;
}

const statusNotes: Partial<Record<ChatTranslationStatus, string>> = {
  pending: 'translating…',
  'not-translated': 'not translated',
};

/**
 * A caller's message shows its translation (the original a tap away); the dispatcher's own
 * shows what they wrote (the caller-language version a tap away). While the translation is
 * pending, or when none could be made, the original shows, marked so.
 */
export function shownMessage(message: StoredChatMessage): ShownMessage {
  const translated =
    (message.translationStatus === 'translated' || message.translationStatus === 'catalogue') &&
    message.translation !== null;
  const note = statusNotes[message.translationStatus] ?? null;
  if (message.from === 'caller') {
    return translated
      ? {
          primary: message.translation!.text,
          alternate: message.text,
          alternateLabel: 'Show original',
          primaryLabel: 'Show translation',
          note,
        }
      : {
          primary: message.text,
          alternate: null,
          alternateLabel: '',
          primaryLabel: '',
          note,
        };
  }
  return {
    primary: message.text,
    alternate: translated ? message.translation!.text : null,
    alternateLabel: 'Show translation',
    primaryLabel: 'Show original',
    note,
  };
}
