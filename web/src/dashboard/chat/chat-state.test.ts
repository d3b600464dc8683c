import type { SessionEventData } from '@locus/contract';
import { describe, expect, it } from 'vitest';
import {
  chatReducer,
  emptyChat,
  isRetryableRefusal,
  nextToSend,
  shownMessage,
  type OutgoingChatMessage,
} from './chat-state';

const sessionId = '00000000-0000-4000-8000-000000000001';
const callerId = '00000000-0000-4000-8000-000000000002';
const clientId = '00000000-0000-4000-8000-000000000003';

const message = (
  change: Partial<SessionEventData<'chat-message'>> = {},
): SessionEventData<'chat-message'> => ({
  seq: 1,
  sessionId,
  callerId,
  messageId: '00000000-0000-4000-8000-000000000010',
  clientId: null,
  from: 'caller',
  senderName: null,
  text: 'Hay un hombre en la casa.',
  language: 'es',
  quickReply: null,
  translation: { language: 'en', text: 'There is a man in the house.' },
  translationStatus: 'translated',
  sentAt: '2026-11-25T12:00:00.000Z',
  ...change,
});

const outgoing: OutgoingChatMessage = {
  clientId,
  callerId,
  text: 'Where are you?',
  quickReply: null,
  status: 'sending',
  reason: null,
};

describe('the dispatcher chat state', () => {
  it('shows a message once, and counts a live caller message as unread', () => {
    let state = chatReducer(emptyChat(null), { type: 'session', sessionId });
    state = chatReducer(state, { type: 'message', data: message(), unread: true });
    state = chatReducer(state, { type: 'message', data: message({ seq: 2 }), unread: true });
    expect(state.messages).toHaveLength(1);
    expect(state.unread).toEqual({ [callerId]: 1 });
    state = chatReducer(state, { type: 'read', callerId });
    expect(state.unread).toEqual({});
  });

  it('ignores another session, and starts afresh for a new one', () => {
    let state = chatReducer(emptyChat(sessionId), {
      type: 'message',
      data: message({ sessionId: '00000000-0000-4000-8000-000000000099' }),
      unread: false,
    });
    expect(state.messages).toEqual([]);
    state = chatReducer(state, { type: 'message', data: message(), unread: false });
    state = chatReducer(state, {
      type: 'session',
      sessionId: '00000000-0000-4000-8000-000000000099',
    });
    expect(state.messages).toEqual([]);
  });

  it('keeps a sent message until it is announced, and shows a refusal', () => {
    let state = chatReducer(emptyChat(sessionId), { type: 'send', message: outgoing });
    state = chatReducer(state, { type: 'ack', ack: { clientId, outcome: 'stored' } });
    expect(state.outgoing).toEqual([{ ...outgoing, status: 'stored' }]);
    state = chatReducer(state, {
      type: 'message',
      data: message({ from: 'dispatcher', clientId, text: 'Where are you?', language: 'en' }),
      unread: true,
    });
    expect(state.outgoing).toEqual([]);
    expect(state.unread).toEqual({});

    state = chatReducer(state, { type: 'send', message: { ...outgoing, clientId: callerId } });
    state = chatReducer(state, {
      type: 'ack',
      ack: { clientId: callerId, outcome: 'refused', reason: 'Too many messages.' },
    });
    expect(state.outgoing[0]).toMatchObject({ status: 'refused', reason: 'Too many messages.' });
  });

  it('updates a pending translation', () => {
    let state = chatReducer(emptyChat(sessionId), {
      type: 'message',
      data: message({ translation: null, translationStatus: 'pending' }),
      unread: false,
    });
    expect(shownMessage(state.messages[0]!)).toMatchObject({
      primary: 'Hay un hombre en la casa.',
      alternate: null,
      note: 'translating…',
    });
    state = chatReducer(state, {
      type: 'translation',
      data: {
        seq: 2,
        sessionId,
        callerId,
        messageId: message().messageId,
        translation: { language: 'en', text: 'There is a man in the house.' },
        translationStatus: 'translated',
      },
    });
    expect(shownMessage(state.messages[0]!)).toMatchObject({
      primary: 'There is a man in the house.',
      alternate: 'Hay un hombre en la casa.',
      alternateLabel: 'Show original',
      note: null,
    });
  });

  it("shows the dispatcher's own words first, the caller's version a tap away", () => {
    const shown = shownMessage({
      ...message({
        from: 'dispatcher',
        text: 'Where are you?',
        language: 'en',
        translation: { language: 'es', text: '¿Dónde está?' },
      }),
    });
    expect(shown).toMatchObject({
      primary: 'Where are you?',
      alternate: '¿Dónde está?',
      alternateLabel: 'Show translation',
    });
    expect(
      shownMessage(message({ translation: null, translationStatus: 'not-translated' })),
    ).toMatchObject({
      primary: 'Hay un hombre en la casa.',
      note: 'not translated',
    });
  });
  it('sends at most three unacked messages, and keeps a rate-limited one for a retry', () => {
    let state = emptyChat(sessionId);
    const ids = Array.from({ length: 6 }, (_, n) => `00000000-0000-4000-8000-0000000001${n}0`);
    for (const id of ids)
      state = chatReducer(state, { type: 'send', message: { ...outgoing, clientId: id } });
    const none = new Set<string>();
    // A rejoin after an outage: only three go, the others wait for acks.
    const first = nextToSend(state.outgoing, none, none).map((m) => m.clientId);
    expect(first).toEqual(ids.slice(0, 3));
    const inFlight = new Set(first);
    expect(nextToSend(state.outgoing, inFlight, none)).toEqual([]);

    state = chatReducer(state, { type: 'ack', ack: { clientId: ids[0]!, outcome: 'stored' } });
    inFlight.delete(ids[0]!);
    const limited = { clientId: ids[1]!, outcome: 'refused' as const, reason: 'rate-limited' };
    expect(isRetryableRefusal(limited)).toBe(true);
    state = chatReducer(state, { type: 'ack', ack: limited });
    inFlight.delete(ids[1]!);
    // Rate-limited is not final: still sending, held back until its retry.
    expect(state.outgoing[1]).toMatchObject({ status: 'sending', reason: null });
    const backingOff = new Set([ids[1]!]);
    expect(nextToSend(state.outgoing, inFlight, backingOff).map((m) => m.clientId)).toEqual([
      ids[3],
      ids[4],
    ]);
    backingOff.clear();
    expect(nextToSend(state.outgoing, inFlight, backingOff).map((m) => m.clientId)).toEqual([
      ids[1],
      ids[3],
    ]);
    expect(isRetryableRefusal({ clientId, outcome: 'refused', reason: 'Too many messages.' })).toBe(
      false,
    );
  });
});
