import { CallerChatFrame, chatLimits, DispatcherChatFrame, type ErrorCode } from '@locus/contract';
import { z } from 'zod';
import type { ChatAckData, ChatService } from './service';

/** After this many `rate-limited` answers in a row (the allowance never refilled), the socket closes. */
export const chatFloodBeforeClose = 100;

/** A token bucket per sender: `chatLimits.burst` at once, then `chatLimits.perMinute`. */
export class ChatBucket {
  private tokens: number = chatLimits.burst;
  private refilledAt = Date.now();

  take(): boolean {
    const now = Date.now();
    this.tokens = Math.min(
      chatLimits.burst,
      this.tokens + ((now - this.refilledAt) / 60_000) * chatLimits.perMinute,
    );
    this.refilledAt = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }

  /** True when the allowance has refilled completely (the sender backed off). */
  get full(): boolean {
    const refilled = this.tokens + ((Date.now() - this.refilledAt) / 60_000) * chatLimits.perMinute;
    return refilled >= chatLimits.burst;
  }
}

/**
 * The buckets of this instance's senders, by sender (a dispatcher's user, a caller): a sender's
 * several sockets share one allowance. Full buckets are forgotten when the map grows.
 */
export class ChatBuckets {
  private readonly buckets = new Map<string, ChatBucket>();

  of(sender: string | null): ChatBucket {
    if (sender === null) return new ChatBucket();
    let bucket = this.buckets.get(sender);
    if (!bucket) {
      if (this.buckets.size >= 10_000) {
        for (const [key, value] of this.buckets) if (value.full) this.buckets.delete(key);
      }
      bucket = new ChatBucket();
      this.buckets.set(sender, bucket);
    }
    return bucket;
  }
}

export interface ChatSocketOutput {
  /** Sends a frame (`chat-ack` or `error`) to this socket. */
  send(event: 'chat-ack' | 'error', data: unknown): void;
  /** The sender flooded past every `rate-limited` answer: close the socket. */
  flood(): void;
}

const clientIdOf = (payload: unknown): string | undefined => {
  const id = (payload as { clientId?: unknown } | null)?.clientId;
  return z.string().uuid().safeParse(id).success ? (id as string) : undefined;
};

/**
 * One socket's chat frames: rate-limited per sender, validated against the contract, then
 * handled one at a time in arrival order (a sender's messages keep their order in the session's
 * sequence), apart from the socket's other frames (a caller's fixes never wait for a translation).
 * A refusal is a `chat-ack` (and an `error` for the rate limit); it never closes the socket,
 * except a flood that ignores `chatFloodBeforeClose` answers.
 */
export class ChatSender {
  private queue: Promise<void> = Promise.resolve();
  private rateLimitedInRow = 0;

  constructor(
    private readonly service: ChatService,
    private readonly who:
      | { from: 'dispatcher'; sessionId: string; userId: string | null }
      | { from: 'caller'; sessionId: string; callerId: string },
    private readonly bucket: ChatBucket,
    private readonly output: ChatSocketOutput,
  ) {}

  /** Resolves once every chat frame received so far has been answered. */
  settled(): Promise<void> {
    return this.queue;
  }

  receive(payload: unknown): void {
    const clientId = clientIdOf(payload);
    // The translation deadline counts from here: a message queued behind others is not held
    // back longer for it (service.ts).
    const arrivedAt = Date.now();
    if (!this.bucket.take()) {
      this.rateLimitedInRow += 1;
      if (this.rateLimitedInRow > chatFloodBeforeClose) return this.output.flood();
      if (clientId)
        this.output.send('chat-ack', {
          clientId,
          outcome: 'refused',
          // Exactly this word (contract: ChatAck): the client may send it again later.
          reason: 'rate-limited',
        });
      this.error('rate-limited', 'Too many chat messages; slow down.');
      return;
    }
    this.rateLimitedInRow = 0;
    const parsed =
      this.who.from === 'dispatcher'
        ? DispatcherChatFrame.safeParse(payload)
        : CallerChatFrame.safeParse(payload);
    if (!parsed.success) {
      const reason = parsed.error.issues
        .map((issue) => `${issue.path.join('.') || 'message'}: ${issue.message}`)
        .join('; ')
        .slice(0, 200);
      if (clientId) this.output.send('chat-ack', { clientId, outcome: 'refused', reason });
      else this.error('invalid-frame', `Invalid chat message: ${reason}`);
      return;
    }
    const frame = parsed.data as {
      clientId: string;
      text?: string;
      quickReply?: z.infer<typeof DispatcherChatFrame>['quickReply'];
      callerId?: string;
    };
    const message =
      this.who.from === 'dispatcher'
        ? {
            sessionId: this.who.sessionId,
            callerId: frame.callerId!,
            from: 'dispatcher' as const,
            senderUserId: this.who.userId,
            clientId: frame.clientId,
            text: frame.text,
            quickReply: frame.quickReply,
            arrivedAt,
          }
        : {
            sessionId: this.who.sessionId,
            callerId: this.who.callerId,
            from: 'caller' as const,
            senderUserId: null,
            clientId: frame.clientId,
            text: frame.text,
            arrivedAt,
          };
    this.queue = this.queue
      .then(async () => this.answer(await this.service.send(message)))
      .catch(() => undefined);
  }

  private answer(ack: ChatAckData): void {
    if (ack.outcome === 'refused') {
      const { error, ...rest } = ack;
      this.output.send('chat-ack', rest);
      if (error) this.error(error, ack.reason);
      return;
    }
    this.output.send('chat-ack', ack);
  }

  private error(error: ErrorCode, message: string): void {
    this.output.send('error', { error, message });
  }
}
