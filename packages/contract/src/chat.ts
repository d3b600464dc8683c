import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { ErrorBody } from './errors';
import { smsLanguages } from './languages';

const c = initContract();
const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 429: ErrorBody };

/**
 * Chat with the caller (issue 12). The dispatcher opens the chat on a running session
 * (`chat-initiated`); from then on the dispatcher (over the dispatcher socket) and each caller
 * (over their caller socket, sharing location or not) exchange messages. A message is one
 * sequenced session event (`chat-message`), stored in Postgres with sender, time and seq before
 * it is announced, so it is delivered exactly once, in order, after any reconnect, and survives a
 * reload on both sides. Each message carries a translation into the reader's language (SPEC.md
 * §4 "Translation language mapping": English means translation off).
 */

export const chatLimits = {
  /** Characters per message, after trimming. */
  maxChars: 2_000,
  /** Messages one sender (a dispatcher socket, a caller) may send in a burst… */
  burst: 5,
  /** …and then per minute. Beyond it the message gets an `error` (`rate-limited`) and is not stored. */
  perMinute: 30,
  /** The original is announced at the latest this long after it was sent, translated or not. */
  translationDeadlineMs: 2_000,
} as const;

/** The dispatcher's quick replies; their texts are in every caller language in the caller-text catalogue. */
export const chatQuickReplies = [
  'are-you-safe',
  'can-you-talk',
  'stay-on-page',
  'help-on-the-way',
] as const;
export const ChatQuickReply = z.enum(chatQuickReplies);
export type ChatQuickReply = z.infer<typeof ChatQuickReply>;

export const ChatLanguage = z.enum(smsLanguages);

/**
 * How the message reached the reader's language:
 * - `translated`: by the translation engine (`translation` holds it);
 * - `catalogue`: a quick reply, written in every language beforehand;
 * - `pending`: the engine did not answer within `translationDeadlineMs`; a `chat-translation`
 *   event follows with the outcome;
 * - `not-translated`: no configured engine covers the pair, or it failed: show the original,
 *   marked "not translated", never a wrong language silently;
 * - `off`: both sides read the same language (an English session).
 */
export const ChatTranslationStatus = z.enum([
  'translated',
  'catalogue',
  'pending',
  'not-translated',
  'off',
]);
export type ChatTranslationStatus = z.infer<typeof ChatTranslationStatus>;

export const ChatTranslation = z.object({ language: ChatLanguage, text: z.string() });

/** The text itself: trimmed, 1 to 2,000 characters, shown as plain text (never as HTML). */
export const ChatText = z.string().trim().min(1).max(chatLimits.maxChars);

/** A client's own id for a message, so that a resend after a reconnect is stored once. */
const clientId = z.string().uuid();

export const chatMessageFields = {
  messageId: z.string().uuid(),
  clientId: clientId.nullable(),
  from: z.enum(['dispatcher', 'caller']),
  /** The dispatcher's name as the caller sees it ("Dispatcher" when unknown); null for the caller. */
  senderName: z.string().nullable(),
  text: z.string(),
  /** The language the sender wrote in: the dispatcher's is `en`, a caller's is their session language. */
  language: ChatLanguage,
  quickReply: ChatQuickReply.nullable(),
  translation: ChatTranslation.nullable(),
  translationStatus: ChatTranslationStatus,
  /** ISO 8601, by the server's clock. */
  sentAt: z.string().datetime(),
};

/** dispatcher → server, on the dispatcher socket once joined. Exactly one of `text`, `quickReply`. */
export const DispatcherChatFrame = z
  .object({
    callerId: z.string().uuid(),
    clientId,
    text: ChatText.optional(),
    quickReply: ChatQuickReply.optional(),
  })
  .strict()
  .refine((frame) => (frame.text === undefined) !== (frame.quickReply === undefined), {
    message: 'Send either text or a quick reply.',
  });

/** caller → server, on the caller socket. */
export const CallerChatFrame = z.object({ clientId, text: ChatText }).strict();

/**
 * caller → server: after (re)connecting, the page asks for every chat event of its own after
 * `lastSeq` (0 for all), then receives them live. Sent by a page whether it shares location or not.
 */
export const CallerChatJoinFrame = z.object({ lastSeq: z.number().int().min(0) }).strict();

/** server → sender: the message was stored (its seq and id), or refused with the reason. */
export const ChatAck = z.object({
  clientId,
  outcome: z.enum(['stored', 'refused']),
  messageId: z.string().uuid().optional(),
  seq: z.number().int().positive().optional(),
  /**
   * Why it was refused, in words; exactly `rate-limited` when the sender's chat allowance is
   * spent: a client may send it again later.
   */
  reason: z.string().max(200).optional(),
});

export const chatContract = c.router(
  {
    chatInitiated: {
      method: 'POST',
      path: '/api/v1/location/chat-initiated/:uuid',
      summary: 'SPEC.md \u00a77: the dispatcher opened the chat on a running session',
      description:
        'Marks the session (`chatInitiated`, which the End Tracking confirmation uses to offer ' +
        'Download Chat) and announces `chat-opened`, so every caller\u2019s page shows the chat. ' +
        'Marking it again changes nothing. 409 `conflict` when the session has ended.',
      pathParams: z.object({ uuid: z.string().uuid() }),
      body: z.object({}).strict().optional(),
      responses: {
        200: z.object({ chatInitiatedAt: z.string().datetime() }),
        ...errors,
        409: ErrorBody,
      },
    },
    chatTranscript: {
      method: 'GET',
      path: '/api/v1/location/chat-transcript/:uuid',
      summary: 'Download Chat: the session\u2019s chat as a readable text file',
      description:
        'Every message, oldest first, with its time in UTC and in the team\u2019s time zone, who wrote ' +
        'it, the original and the translation. `text/plain; charset=utf-8`, as an attachment. For ' +
        'the session\u2019s dispatcher (also after it ended) and its team\u2019s admins.',
      pathParams: z.object({ uuid: z.string().uuid() }),
      responses: {
        200: c.otherResponse({ contentType: 'text/plain', body: z.string() }),
        ...errors,
      },
    },
  },
  { strictStatusCodes: true },
);
