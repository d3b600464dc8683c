import type { CallerServerFrame } from '@locus/contract/caller';
import type { CallerChatHooks, ChatServerFrame } from './caller-socket';

type ChatMessageData = Extract<CallerServerFrame, { event: 'chat-message' }>['data'];

/** The longest message the server takes (chat.ts `chatLimits.maxChars`; the page imports no zod). */
export const CHAT_MAX_CHARS = 2_000;

/** One line of the chat as the page shows it. */
export type ChatEntry =
  | { kind: 'message'; key: string; message: ChatMessageData }
  | {
      kind: 'outgoing';
      key: string;
      text: string;
      /** sending: not yet stored (resent after a reconnect); refused: never will be. */
      delivery: 'sending' | 'stored' | 'refused';
      reason?: string;
    };

export interface ChatState {
  /** The dispatcher opened the chat (`chat-opened`): the page shows it. */
  opened: boolean;
  entries: readonly ChatEntry[];
}

interface Outgoing {
  clientId: string;
  text: string;
  delivery: 'sending' | 'stored' | 'refused';
  reason?: string;
}

const storageKey = (token: string) => `locus.chat-outbox.${token}`;

/** Messages sent and not yet acked: the server allows a burst of 5 and refuses the rest. */
export const CHAT_MAX_IN_FLIGHT = 3;
/** A message refused as 'rate-limited' is sent again after this long. */
export const CHAT_RATE_LIMIT_RETRY_MS = 2_000;

/**
 * The caller's chat (issue 12), framework-free. Messages arrive as the session's sequenced
 * events over the caller socket; they are kept by id, so a replay after a reconnect or a reload
 * (which starts again at seq 0) shows each once. The caller's own messages wait in an outbox,
 * kept in sessionStorage across a reload, and are sent again on every (re)connect until the
 * server's `chat-ack` says stored, or refused (shown with the reason, never sent again). At most
 * CHAT_MAX_IN_FLIGHT are unacked at a time, so a resend after a long outage stays inside the
 * server's burst; a refusal for 'rate-limited' is not final: the message is sent again later.
 */
export class CallerChat {
  private opened = false;
  private lastSeq = 0;
  private readonly messages = new Map<string, ChatMessageData>();
  private outbox: Outgoing[];
  private state: ChatState = { opened: false, entries: [] };
  private readonly listeners = new Set<() => void>();
  /** Sent on this socket and not yet acked (cleared by a rejoin: the new socket sends again). */
  private readonly inFlight = new Set<string>();
  /** Refused as rate-limited: waits for its retry timer. */
  private readonly backingOff = new Set<string>();

  constructor(
    private readonly token: string,
    private readonly transport: (clientId: string, text: string) => boolean,
    private readonly storage: Storage | null = safeSessionStorage(),
    private readonly retryAfterMs = CHAT_RATE_LIMIT_RETRY_MS,
  ) {
    this.outbox = this.load();
    this.state = this.compute();
  }

  readonly hooks: CallerChatHooks = {
    lastSeq: () => this.lastSeq,
    unsent: () => this.outbox.filter((entry) => entry.delivery === 'sending'),
    onFrame: (frame) => this.onFrame(frame),
    joined: () => {
      this.inFlight.clear();
      this.pump();
    },
  };

  readonly getState = (): ChatState => this.state;

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** The caller's Send: false when the text is empty or too long (nothing is queued). */
  readonly send = (raw: string): boolean => {
    const text = raw.trim();
    if (text.length === 0 || text.length > CHAT_MAX_CHARS) return false;
    const clientId = crypto.randomUUID();
    this.outbox.push({ clientId, text, delivery: 'sending' });
    this.changed();
    this.pump();
    return true;
  };

  /** Sends waiting messages, oldest first, while fewer than CHAT_MAX_IN_FLIGHT await an ack. */
  private pump(): void {
    for (const entry of this.outbox) {
      if (this.inFlight.size >= CHAT_MAX_IN_FLIGHT) return;
      if (entry.delivery !== 'sending') continue;
      if (this.inFlight.has(entry.clientId) || this.backingOff.has(entry.clientId)) continue;
      // Not sent (no socket): the next join sends it.
      if (!this.transport(entry.clientId, entry.text)) return;
      this.inFlight.add(entry.clientId);
    }
  }

  private onFrame(frame: ChatServerFrame): void {
    // An ack's seq is its message's, which may not have arrived yet: only events move lastSeq.
    if (frame.event !== 'chat-ack') this.lastSeq = Math.max(this.lastSeq, frame.data.seq);
    switch (frame.event) {
      case 'chat-opened':
        this.opened = true;
        break;
      case 'chat-message': {
        const message = frame.data;
        // The chat is open if a message came, even if its chat-opened was missed.
        this.opened = true;
        this.messages.set(message.messageId, message);
        if (message.clientId) {
          this.outbox = this.outbox.filter((entry) => entry.clientId !== message.clientId);
          this.inFlight.delete(message.clientId);
        }
        break;
      }
      case 'chat-translation': {
        const message = this.messages.get(frame.data.messageId);
        if (!message) return;
        this.messages.set(message.messageId, {
          ...message,
          translation: frame.data.translation,
          translationStatus: frame.data.translationStatus,
        });
        break;
      }
      case 'chat-ack': {
        const entry = this.outbox.find((item) => item.clientId === frame.data.clientId);
        this.inFlight.delete(frame.data.clientId);
        if (!entry) {
          this.pump();
          return;
        }
        if (frame.data.outcome === 'refused' && frame.data.reason === 'rate-limited') {
          // Not final: still sending, tried again once the server's bucket has refilled.
          this.backingOff.add(entry.clientId);
          setTimeout(() => {
            this.backingOff.delete(entry.clientId);
            this.pump();
          }, this.retryAfterMs);
        } else if (frame.data.outcome === 'stored') {
          // Already shown as a message (it came first): nothing more to wait for.
          const shown = [...this.messages.values()].some(
            (message) => message.clientId === entry.clientId,
          );
          if (shown) this.outbox = this.outbox.filter((item) => item !== entry);
          else entry.delivery = 'stored';
        } else {
          entry.delivery = 'refused';
          entry.reason = frame.data.reason;
        }
        break;
      }
    }
    this.changed();
    this.pump();
  }

  private compute(): ChatState {
    const messages = [...this.messages.values()].sort((a, b) => a.seq - b.seq);
    const entries: ChatEntry[] = [
      ...messages.map((message): ChatEntry => ({
        kind: 'message',
        key: message.messageId,
        message,
      })),
      ...this.outbox.map((entry): ChatEntry => ({
        kind: 'outgoing',
        key: entry.clientId,
        text: entry.text,
        delivery: entry.delivery,
        reason: entry.reason,
      })),
    ];
    return { opened: this.opened, entries };
  }

  private changed(): void {
    this.save();
    this.state = this.compute();
    for (const listener of this.listeners) listener();
  }

  private load(): Outgoing[] {
    try {
      const raw = this.storage?.getItem(storageKey(this.token));
      const parsed: unknown = raw ? JSON.parse(raw) : [];
      if (!Array.isArray(parsed)) return [];
      // A message stored before the reload comes back with the replay; only unsent ones wait.
      return (parsed as Outgoing[]).filter(
        (entry) => typeof entry?.clientId === 'string' && typeof entry.text === 'string',
      );
    } catch {
      return [];
    }
  }

  private save(): void {
    try {
      const unsent = this.outbox.filter((entry) => entry.delivery === 'sending');
      if (unsent.length === 0) this.storage?.removeItem(storageKey(this.token));
      else this.storage?.setItem(storageKey(this.token), JSON.stringify(unsent));
    } catch {
      // Private mode or a full quota: the outbox still lives as long as the page.
    }
  }
}

function safeSessionStorage(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}
