import {
  callerTexts,
  chatLimits,
  chatTranscriptFileName,
  chatTranscriptText,
  translationLanguage,
  type ChatQuickReply,
  type ChatTranslationStatus,
  type SessionEventData,
} from '@locus/contract';
import type { SmsLanguage as SmsLanguageCode } from '@locus/contract';
import { readChatTranscript } from '@locus/db';
import { randomUUID } from 'node:crypto';
import { ApiError } from '../../http/errors';
import type { Principal } from '../auth/guard';
import { findVisibleSession } from '../location/repo';
import type { RealtimeContext } from '../realtime/context';
import { publishSessionEvent, sequence } from '../realtime/session-publisher';
import {
  callersAwaitingChatOpened,
  claimChatOpened,
  findByClientId,
  findChatTarget,
  findUserName,
  insertMessageAnnounced,
  insertMessageAt,
  markChatInitiated,
  releaseChatOpened,
  updateTranslation,
  type NewChatMessage,
} from './repo';
import { ChatBuckets } from './sender';
import type { Translator } from './translation/translator';

type Context = Pick<RealtimeContext, 'db' | 'sequencer' | 'writer' | 'journal' | 'metrics' | 'log'>;

/** How long a `pending` translation may still arrive before it is given up as `not-translated`. */
export const translationGiveUpMs = 15_000;

/** A message as a sender asked for it, already validated against the contract. */
export interface OutgoingMessage {
  sessionId: string;
  callerId: string;
  from: 'dispatcher' | 'caller';
  /** The dispatcher's user (none for a caller, or a token issued without one). */
  senderUserId: string | null;
  clientId: string;
  text?: string;
  quickReply?: ChatQuickReply;
  /** When the frame arrived (ms): the translation deadline counts from it. Now when absent. */
  arrivedAt?: number;
}

export type ChatAckData =
  | { clientId: string; outcome: 'stored'; messageId: string; seq: number }
  | { clientId: string; outcome: 'refused'; reason: string; error?: 'service-unavailable' };

/** A quick reply in `language`, from the caller-text catalogue (written in every language). */
export function quickReplyText(language: SmsLanguageCode, reply: ChatQuickReply): string {
  return callerTexts[language].quickReplies[reply];
}

type Outcome = {
  translation: { language: SmsLanguageCode; text: string } | null;
  status: ChatTranslationStatus;
};

/**
 * Chat with the caller (issue 12): opening the chat, a message's path (language, translation
 * within `chatLimits.translationDeadlineMs`, storage and announcement as one sequenced session
 * event) and the transcript. The sockets hand it validated frames (see sender.ts).
 */
export class ChatService {
  /** Every sender's rate limit on this instance (see sender.ts). */
  readonly buckets = new ChatBuckets();

  constructor(
    private readonly context: Context,
    public translator: Translator,
  ) {}

  /** `chat-initiated`: marks the session once and announces `chat-opened` to each caller, once. */
  async initiate(principal: Principal, sessionId: string): Promise<{ chatInitiatedAt: string }> {
    const session = await findVisibleSession(this.context.db, sessionId, principal.userId);
    if (!session) throw new ApiError(404, 'not-found', 'There is no such tracking session.');
    if (session.status !== 'active')
      throw new ApiError(409, 'conflict', 'This tracking session has ended.');
    const marked = await markChatInitiated(this.context.db, sessionId);
    if (!marked) throw new ApiError(409, 'conflict', 'This tracking session has ended.');
    // Every caller not yet told (all of them the first time): calling it again repairs an
    // announcement that failed midway.
    await announceChatOpened(this.context, sessionId, marked.callerIds);
    return { chatInitiatedAt: marked.chatInitiatedAt.toISOString() };
  }

  /**
   * One message: refused with a reason (nothing stored) unless the caller is the session's, the
   * session runs and its chat was opened. A resend of a stored client id is answered with the
   * first message. Otherwise translated (at most the deadline), stored and announced.
   */
  async send(message: OutgoingMessage): Promise<ChatAckData> {
    const { clientId } = message;
    const refused = (reason: string): ChatAckData => ({ clientId, outcome: 'refused', reason });
    try {
      const target = await findChatTarget(this.context.db, message.sessionId, message.callerId);
      if (!target) return refused('No such caller in this session.');
      // A resend of a stored message is answered as stored, whatever happened since.
      const first = await findByClientId(
        this.context.db,
        message.sessionId,
        message.from,
        clientId,
      );
      if (first) return { clientId, outcome: 'stored', messageId: first.id, seq: first.seq };
      if (!target.sessionActive) return refused('This tracking session has ended.');
      // Only the session's dispatcher now speaks for it: one whose case was transferred away
      // may still have a socket open for a moment, and is refused.
      if (
        message.from === 'dispatcher' &&
        message.senderUserId !== null &&
        target.dispatcherId !== message.senderUserId
      )
        return refused('This case is no longer yours; nothing was sent.');
      if (!target.chatInitiated) return refused('The dispatcher has not opened the chat yet.');
      return await this.store(message, target.callerLanguage);
    } catch (error) {
      this.context.log.error({ err: error }, 'chat message not stored');
      return {
        clientId,
        outcome: 'refused',
        reason: 'The message could not be stored; send it again.',
        error: 'service-unavailable',
      };
    }
  }

  private async store(
    message: OutgoingMessage,
    callerLanguage: SmsLanguageCode,
  ): Promise<ChatAckData> {
    const sentAt = new Date();
    const fromDispatcher = message.from === 'dispatcher';
    const language: SmsLanguageCode = fromDispatcher ? 'en' : callerLanguage;
    // SPEC.md §4: the session's translation language; English means off, both ways.
    const sessionTranslation = translationLanguage(callerLanguage);
    const readerLanguage: SmsLanguageCode | null =
      sessionTranslation === null ? null : fromDispatcher ? sessionTranslation : 'en';
    const senderName = fromDispatcher
      ? ((message.senderUserId
          ? await findUserName(this.context.db, message.senderUserId)
          : null) ?? 'Dispatcher')
      : null;

    let text: string;
    let outcome: Outcome;
    let later: Promise<Outcome> | undefined;
    if (message.quickReply) {
      text = quickReplyText('en', message.quickReply);
      outcome = readerLanguage
        ? {
            translation: {
              language: readerLanguage,
              text: quickReplyText(readerLanguage, message.quickReply),
            },
            status: 'catalogue',
          }
        : { translation: null, status: 'off' };
    } else {
      text = message.text!;
      const deadline = (message.arrivedAt ?? Date.now()) + chatLimits.translationDeadlineMs;
      ({ outcome, later } = await this.translate(text, language, readerLanguage, deadline));
    }

    const stored: NewChatMessage = {
      id: randomUUID(),
      sessionId: message.sessionId,
      callerId: message.callerId,
      sender: message.from,
      senderUserId: fromDispatcher ? message.senderUserId : null,
      senderName,
      clientId: message.clientId,
      body: text,
      language,
      quickReply: message.quickReply ?? null,
      translationLanguage: outcome.translation?.language ?? null,
      translationText: outcome.translation?.text ?? null,
      translationStatus: outcome.status,
      sentAt,
    };
    const data: Omit<SessionEventData<'chat-message'>, 'seq'> = {
      sessionId: message.sessionId,
      callerId: message.callerId,
      messageId: stored.id,
      clientId: message.clientId,
      from: message.from,
      senderName,
      text,
      language,
      quickReply: message.quickReply ?? null,
      translation: outcome.translation,
      translationStatus: outcome.status,
      sentAt: sentAt.toISOString(),
    };
    const seq = await this.announce(stored, data);
    if (seq === undefined) {
      // A resend of the same client id, stored meanwhile by a concurrent attempt.
      const first = await findByClientId(
        this.context.db,
        message.sessionId,
        message.from,
        message.clientId,
      );
      if (!first) throw new Error('chat message neither stored nor found');
      return { clientId: message.clientId, outcome: 'stored', messageId: first.id, seq: first.seq };
    }
    if (later) void this.followUp(stored, later);
    return { clientId: message.clientId, outcome: 'stored', messageId: stored.id, seq };
  }

  /**
   * Stores and announces in one step (`insertMessageAnnounced`). Returns undefined when a
   * concurrent resend with the same client id won. Should the commit fail after the event went
   * out (Postgres lost in those few milliseconds), the event is persisted like any other and
   * the row is written again, so storage and sequence still agree.
   */
  private async announce(
    stored: NewChatMessage,
    data: Omit<SessionEventData<'chat-message'>, 'seq'>,
  ): Promise<number | undefined> {
    const payload = JSON.stringify(data);
    let announcedSeq: number | undefined;
    try {
      return await insertMessageAnnounced(this.context.db, stored, async () => {
        announcedSeq = await sequence(
          this.context,
          stored.sessionId,
          'chat-message',
          payload,
          undefined,
          undefined,
          {
            event: {
              sessionId: stored.sessionId,
              callerId: stored.callerId,
              event: 'chat-message',
              payload,
              createdAt: stored.sentAt,
            },
          },
        );
        return announcedSeq;
      });
    } catch (error) {
      if (announcedSeq === undefined) {
        if (isUniqueViolation(error)) return undefined;
        throw error;
      }
      this.context.log.error({ err: error }, 'chat message announced; storing it again');
      await this.retry(() => insertMessageAt(this.context.db, stored, announcedSeq!));
      return announcedSeq;
    }
  }

  private async retry(task: () => Promise<void>): Promise<void> {
    for (let attempt = 0; ; attempt += 1) {
      try {
        return await task();
      } catch (error) {
        if (attempt >= 5) {
          this.context.log.error({ err: error }, 'chat message could not be stored again');
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, 200 * 2 ** attempt));
      }
    }
  }

  /**
   * The translation, or `pending` with the rest to follow: the original is never held back
   * longer than `chatLimits.translationDeadlineMs`. A pair no engine covers is `not-translated`
   * at once.
   */
  private async translate(
    text: string,
    from: SmsLanguageCode,
    to: SmsLanguageCode | null,
    deadlineAt: number,
  ): Promise<{ outcome: Outcome; later?: Promise<Outcome> }> {
    if (to === null || to === from) return { outcome: { translation: null, status: 'off' } };
    const translator = this.translator;
    if (!translator.covers(from, to))
      return { outcome: { translation: null, status: 'not-translated' } };
    const abort = new AbortController();
    const giveUp = setTimeout(() => abort.abort(), translationGiveUpMs);
    giveUp.unref();
    const answer: Promise<Outcome> = new Promise<Outcome>((resolve) => {
      abort.signal.addEventListener('abort', () =>
        resolve({ translation: null, status: 'not-translated' }),
      );
      translator.translate(text, from, to, abort.signal).then(
        (result) => {
          if (result.status !== 'translated') this.warnUntranslated(translator.name, result.reason);
          resolve(
            result.status === 'translated' && result.text.trim() !== ''
              ? { translation: { language: to, text: result.text }, status: 'translated' }
              : { translation: null, status: 'not-translated' },
          );
        },
        (error: unknown) => {
          this.context.log.warn({ err: error }, 'translation failed');
          resolve({ translation: null, status: 'not-translated' });
        },
      );
    }).finally(() => clearTimeout(giveUp));
    // Measured from the message's arrival: one that waited its turn behind others and whose
    // time is up goes out at once, `pending`, with its translation to follow.
    const left = deadlineAt - Date.now();
    let deadline: NodeJS.Timeout | undefined;
    const inTime =
      left <= 0
        ? undefined
        : await Promise.race([
            answer,
            new Promise<undefined>((resolve) => {
              deadline = setTimeout(() => resolve(undefined), left);
            }),
          ]);
    clearTimeout(deadline);
    if (inTime) return { outcome: inTime };
    return { outcome: { translation: null, status: 'pending' }, later: answer };
  }

  /** When each engine's failure reason was last logged: at most once a minute each. */
  private readonly warnedAt = new Map<string, number>();

  /**
   * An engine's `not-translated` answer, logged so a failing engine is noticed; the reason never
   * carries the API key (the engines do not put it there), and any credentials in a URL are cut.
   */
  private warnUntranslated(engine: string, reason: string): void {
    const safe = reason.replace(/\/\/[^/@\s]*@/g, '//').slice(0, 300);
    const key = `${engine}|${safe}`;
    const now = Date.now();
    if (now - (this.warnedAt.get(key) ?? -Infinity) < 60_000) return;
    if (this.warnedAt.size >= 1_000) this.warnedAt.clear();
    this.warnedAt.set(key, now);
    this.context.log.warn({ engine, reason: safe }, 'translation failed');
  }

  /** A `pending` message's translation, once the engine answered (or was given up on). */
  private async followUp(stored: NewChatMessage, later: Promise<Outcome>): Promise<void> {
    const outcome = await later;
    try {
      await updateTranslation(this.context.db, stored.id, outcome.translation, outcome.status);
      await publishSessionEvent(
        this.context,
        { sessionId: stored.sessionId, callerId: stored.callerId },
        'chat-translation',
        {
          messageId: stored.id,
          translation: outcome.translation,
          translationStatus: outcome.status,
        },
      );
    } catch (error) {
      this.context.log.error({ err: error }, 'chat translation not announced');
    }
  }

  /** Download Chat: the transcript's file name and text (404 like every other session route). */
  async transcript(
    principal: Principal,
    sessionId: string,
  ): Promise<{ fileName: string; text: string }> {
    const session = await findVisibleSession(this.context.db, sessionId, principal.userId);
    if (!session) throw new ApiError(404, 'not-found', 'There is no such tracking session.');
    const data = await readChatTranscript(this.context.db, sessionId);
    const messages = data.messages.map((row) => ({
      sentAt: row.sent_at,
      from: row.sender as 'dispatcher' | 'caller',
      senderName: row.sender_name,
      callerPhone: row.phone_number,
      text: row.body,
      language: row.language as SmsLanguageCode,
      translationLanguage: row.translation_language as SmsLanguageCode | null,
      translationText: row.translation_text,
      translationStatus: row.translation_status,
    }));
    const first = data.messages[0];
    return {
      fileName: first
        ? chatTranscriptFileName(first.phone_number, first.sent_at)
        : `chat_${sessionId}.txt`,
      text: chatTranscriptText({
        sessionId,
        teamName: data.teamName,
        timeZone: data.timeZone,
        messages,
      }),
    };
  }
}

/**
 * `chat-opened` to each of these callers, at most once each (`session_callers.chat_opened_at`,
 * claimed before and given back if the announcement fails, so a later call makes it).
 */
export async function announceChatOpened(
  context: Pick<Context, 'db' | 'sequencer' | 'writer' | 'journal' | 'metrics' | 'log'>,
  sessionId: string,
  callerIds: string[],
): Promise<void> {
  for (const callerId of callerIds) {
    if (!(await claimChatOpened(context.db, callerId))) continue;
    try {
      await publishSessionEvent(context, { sessionId, callerId }, 'chat-opened', {});
    } catch (error) {
      await releaseChatOpened(context.db, callerId).catch(() => undefined);
      throw error;
    }
  }
}

/** A caller added to a session whose chat is already open is told so (`chat-opened`). */
export async function announceChatOpenedToNewCallers(
  context: Pick<Context, 'db' | 'sequencer' | 'writer' | 'journal' | 'metrics' | 'log'>,
  sessionId: string,
): Promise<void> {
  await announceChatOpened(
    context,
    sessionId,
    await callersAwaitingChatOpened(context.db, sessionId),
  );
}

function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: string } | null)?.code === '23505';
}

/**
 * Is this sequenced frame one of `callerId`'s chat events? Cheap for everything else (fixes):
 * a sequenced frame starts with its event's name (see `framePieces` in frames.ts).
 */
const CHAT_PREFIX = Buffer.from('{"event":"chat-');
export function chatEventOf(frame: Buffer | string, callerId: string): boolean {
  const bytes = typeof frame === 'string' ? Buffer.from(frame) : frame;
  if (
    bytes.length < CHAT_PREFIX.length ||
    bytes.compare(CHAT_PREFIX, 0, CHAT_PREFIX.length, 0, CHAT_PREFIX.length) !== 0
  )
    return false;
  try {
    const parsed = JSON.parse(bytes.toString()) as { data?: { callerId?: unknown } };
    return parsed.data?.callerId === callerId;
  } catch {
    return false;
  }
}
