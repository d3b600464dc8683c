import type { Database } from '@locus/db';
import type { SmsLanguage as SmsLanguageCode } from '@locus/contract';
import { sql } from 'kysely';

/**
 * Marks the chat opened, once. Returns the time it was opened, whether this call opened it, and
 * the session's callers (to announce `chat-opened` to each), or undefined when the session is
 * not active.
 */
export async function markChatInitiated(
  db: Database,
  sessionId: string,
): Promise<{ chatInitiatedAt: Date; opened: boolean; callerIds: string[] } | undefined> {
  return db.transaction().execute(async (trx) => {
    const opened = await trx
      .updateTable('tracking_sessions')
      .set({ chat_initiated_at: sql<Date>`now()` })
      .where('id', '=', sessionId)
      .where('status', '=', 'active')
      .where('chat_initiated_at', 'is', null)
      .returning('chat_initiated_at')
      .executeTakeFirst();
    const session = await trx
      .selectFrom('tracking_sessions')
      .select(['chat_initiated_at', 'status'])
      .where('id', '=', sessionId)
      .executeTakeFirst();
    if (!session?.chat_initiated_at || (!opened && session.status !== 'active')) return undefined;
    const callers = await trx
      .selectFrom('session_callers')
      .select('id')
      .where('session_id', '=', sessionId)
      .where('chat_opened_at', 'is', null)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return {
      chatInitiatedAt: session.chat_initiated_at,
      opened: opened !== undefined,
      callerIds: callers.map((row) => row.id),
    };
  });
}

/**
 * The session's callers not yet told that its chat is open, when it is (and still runs); none
 * otherwise. For a caller added to a session whose chat was opened before.
 */
export async function callersAwaitingChatOpened(
  db: Database,
  sessionId: string,
): Promise<string[]> {
  const rows = await db
    .selectFrom('session_callers as c')
    .innerJoin('tracking_sessions as s', 's.id', 'c.session_id')
    .select('c.id')
    .where('c.session_id', '=', sessionId)
    .where('s.status', '=', 'active')
    .where('s.chat_initiated_at', 'is not', null)
    .where('c.chat_opened_at', 'is', null)
    .orderBy('c.created_at')
    .orderBy('c.id')
    .execute();
  return rows.map((row) => row.id);
}

/** Claims a caller's `chat-opened` announcement; false when another request claimed it first. */
export async function claimChatOpened(db: Database, callerId: string): Promise<boolean> {
  const result = await db
    .updateTable('session_callers')
    .set({ chat_opened_at: sql<Date>`now()` })
    .where('id', '=', callerId)
    .where('chat_opened_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Gives a claim back: the announcement failed, and a later attempt makes it. */
export async function releaseChatOpened(db: Database, callerId: string): Promise<void> {
  await db
    .updateTable('session_callers')
    .set({ chat_opened_at: null })
    .where('id', '=', callerId)
    .execute();
}

export interface ChatTarget {
  sessionActive: boolean;
  chatInitiated: boolean;
  callerLanguage: SmsLanguageCode;
  /** The session's dispatcher now (a transfer changes it). */
  dispatcherId: string | null;
}

/** What a message to or from `callerId` needs to know; undefined when the caller is not the session's. */
export async function findChatTarget(
  db: Database,
  sessionId: string,
  callerId: string,
): Promise<ChatTarget | undefined> {
  const row = await db
    .selectFrom('session_callers as c')
    .innerJoin('tracking_sessions as s', 's.id', 'c.session_id')
    .select(['s.status', 's.chat_initiated_at', 's.dispatcher_id', 'c.language'])
    .where('c.id', '=', callerId)
    .where('c.session_id', '=', sessionId)
    .executeTakeFirst();
  return row
    ? {
        sessionActive: row.status === 'active',
        chatInitiated: row.chat_initiated_at !== null,
        callerLanguage: row.language as SmsLanguageCode,
        dispatcherId: row.dispatcher_id,
      }
    : undefined;
}

/** The name a caller sees for a dispatcher. */
export async function findUserName(db: Database, userId: string): Promise<string | null> {
  const row = await db
    .selectFrom('users')
    .select(['first_name', 'last_name'])
    .where('id', '=', userId)
    .executeTakeFirst();
  const name = row ? [row.first_name, row.last_name].filter(Boolean).join(' ').trim() : '';
  return name || null;
}

/** A message already stored with this client id (a resend after a reconnect). */
export async function findByClientId(
  db: Database,
  sessionId: string,
  sender: 'dispatcher' | 'caller',
  clientId: string,
): Promise<{ id: string; seq: number } | undefined> {
  return db
    .selectFrom('chat_messages')
    .select(['id', 'seq'])
    .where('session_id', '=', sessionId)
    .where('sender', '=', sender)
    .where('client_id', '=', clientId)
    .where('seq', '>', 0)
    .executeTakeFirst();
}

export interface NewChatMessage {
  id: string;
  sessionId: string;
  callerId: string;
  sender: 'dispatcher' | 'caller';
  senderUserId: string | null;
  senderName: string | null;
  clientId: string;
  body: string;
  language: SmsLanguageCode;
  quickReply: string | null;
  translationLanguage: SmsLanguageCode | null;
  translationText: string | null;
  translationStatus: string;
  sentAt: Date;
}

/**
 * Stores a message and gives it its seq in one transaction: the row goes in first with a
 * provisional seq (negative, never a real one, unique under `(session_id, seq)`), then `announce` sequences and publishes the
 * event, then the row takes that seq and the transaction commits. With Postgres down, nothing is
 * announced (the insert fails first); with Redis down, nothing is stored (the insert rolls back).
 * A concurrent resend with the same client id waits on the unique index and fails: the caller of
 * this function then answers with the first message (`findByClientId`).
 */
export async function insertMessageAnnounced(
  db: Database,
  message: NewChatMessage,
  announce: () => Promise<number>,
): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const provisionalSeq = -1 - Math.floor(Math.random() * 2 ** 30);
    await trx
      .insertInto('chat_messages')
      .values({ ...row(message), seq: provisionalSeq })
      .execute();
    const seq = await announce();
    await trx.updateTable('chat_messages').set({ seq }).where('id', '=', message.id).execute();
    return seq;
  });
}

/** After a commit that failed once the event was out: the row again, as announced. */
export async function insertMessageAt(
  db: Database,
  message: NewChatMessage,
  seq: number,
): Promise<void> {
  await db
    .insertInto('chat_messages')
    .values({ ...row(message), seq })
    .onConflict((oc) => oc.column('id').doUpdateSet({ seq }))
    .execute();
}

function row(message: NewChatMessage) {
  return {
    id: message.id,
    session_id: message.sessionId,
    caller_id: message.callerId,
    sender: message.sender,
    sender_user_id: message.senderUserId,
    sender_name: message.senderName,
    client_id: message.clientId,
    body: message.body,
    language: message.language,
    quick_reply: message.quickReply,
    translation_language: message.translationLanguage,
    translation_text: message.translationText,
    translation_status: message.translationStatus,
    sent_at: message.sentAt,
  };
}

/** A `pending` message's outcome. */
export async function updateTranslation(
  db: Database,
  messageId: string,
  translation: { language: SmsLanguageCode; text: string } | null,
  status: string,
): Promise<void> {
  await db
    .updateTable('chat_messages')
    .set({
      translation_language: translation?.language ?? null,
      translation_text: translation?.text ?? null,
      translation_status: status,
    })
    .where('id', '=', messageId)
    .execute();
}
