import { describe, expect, it, vi } from 'vitest';
import { CallerChat } from './caller-chat';
import type { ChatServerFrame } from './caller-socket';

/** sessionStorage as a Map: what survives a reload of the page. */
function memoryStorage(): Storage {
  const items = new Map<string, string>();
  return {
    get length() {
      return items.size;
    },
    clear: () => items.clear(),
    getItem: (key) => items.get(key) ?? null,
    key: (index) => [...items.keys()][index] ?? null,
    removeItem: (key) => void items.delete(key),
    setItem: (key, value) => void items.set(key, value),
  };
}

const sessionId = '00000000-0000-4000-8000-000000000001';
const callerId = '00000000-0000-4000-8000-000000000002';
const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

function dispatcherMessage(seq: number, text: string): ChatServerFrame {
  return {
    event: 'chat-message',
    data: {
      seq,
      sessionId,
      callerId,
      messageId: id(100 + seq),
      clientId: id(200 + seq),
      from: 'dispatcher',
      senderName: 'Dana',
      text,
      language: 'en',
      quickReply: null,
      translation: null,
      translationStatus: 'pending',
      sentAt: new Date(0).toISOString(),
    },
  };
}

function callerMessage(seq: number, clientId: string, text: string): ChatServerFrame {
  const frame = dispatcherMessage(seq, text);
  if (frame.event !== 'chat-message') throw new Error('unreachable');
  return {
    event: 'chat-message',
    data: { ...frame.data, from: 'caller', senderName: null, clientId, language: 'es' },
  };
}

describe('CallerChat', () => {
  it('shows a replayed history once, and a late translation in place', () => {
    const chat = new CallerChat('token', () => true, memoryStorage());
    expect(chat.getState().opened).toBe(false);
    const opened: ChatServerFrame = { event: 'chat-opened', data: { seq: 3, sessionId, callerId } };
    chat.hooks.onFrame(opened);
    chat.hooks.onFrame(dispatcherMessage(4, 'Are you hurt?'));
    // A reconnect that replays from an older seq (a reload starts at 0) adds nothing twice.
    chat.hooks.onFrame(opened);
    chat.hooks.onFrame(dispatcherMessage(4, 'Are you hurt?'));
    chat.hooks.onFrame({
      event: 'chat-translation',
      data: {
        seq: 5,
        sessionId,
        callerId,
        messageId: id(104),
        translation: { language: 'es', text: '¿Está herido?' },
        translationStatus: 'translated',
      },
    });
    const { opened: isOpen, entries } = chat.getState();
    expect(isOpen).toBe(true);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      kind: 'message',
      message: { text: 'Are you hurt?', translation: { text: '¿Está herido?' } },
    });
    expect(chat.hooks.lastSeq()).toBe(5);
  });

  it('sends a message, resends it until stored, and shows it once when it comes back', () => {
    const sent: string[] = [];
    const chat = new CallerChat(
      'token',
      (clientId) => (sent.push(clientId), false),
      memoryStorage(),
    );
    expect(chat.send('   ')).toBe(false);
    expect(chat.send('x'.repeat(2_001))).toBe(false);
    expect(chat.send('  Estoy en el sótano  ')).toBe(true);
    expect(sent).toHaveLength(1);
    const clientId = sent[0]!;
    // Not acked yet: the next (re)connect sends it again.
    expect(chat.hooks.unsent()).toEqual([
      { clientId, text: 'Estoy en el sótano', delivery: 'sending' },
    ]);
    chat.hooks.onFrame({
      event: 'chat-ack',
      data: { clientId, outcome: 'stored', messageId: id(150), seq: 9 },
    });
    expect(chat.hooks.unsent()).toEqual([]);
    // The ack's seq belongs to the message, which has not arrived: it must still be asked for.
    expect(chat.hooks.lastSeq()).toBe(0);
    chat.hooks.onFrame(callerMessage(9, clientId, 'Estoy en el sótano'));
    expect(chat.getState().entries).toEqual([
      expect.objectContaining({ kind: 'message', message: expect.objectContaining({ clientId }) }),
    ]);
  });

  it('shows a refused message with its reason and never sends it again', () => {
    const sent: string[] = [];
    const chat = new CallerChat(
      'token',
      (clientId) => (sent.push(clientId), true),
      memoryStorage(),
    );
    chat.send('hola');
    chat.hooks.onFrame({
      event: 'chat-ack',
      data: { clientId: sent[0]!, outcome: 'refused', reason: 'Too many messages.' },
    });
    expect(chat.hooks.unsent()).toEqual([]);
    expect(chat.getState().entries).toEqual([
      expect.objectContaining({
        kind: 'outgoing',
        delivery: 'refused',
        reason: 'Too many messages.',
      }),
    ]);
  });

  it('keeps an unsent message across a reload of the page', () => {
    const storage = memoryStorage();
    const before = new CallerChat('token', () => false, storage);
    before.send('¿Siguen ahí?');
    const after = new CallerChat('token', () => false, storage);
    expect(after.hooks.unsent()).toEqual([
      expect.objectContaining({ text: '¿Siguen ahí?', delivery: 'sending' }),
    ]);
    expect(new CallerChat('other-token', () => false, storage).hooks.unsent()).toEqual([]);
  });
  it('resends after a reconnect a few at a time, and retries a rate-limited refusal', () => {
    vi.useFakeTimers();
    try {
      const sent: string[] = [];
      let connected = false;
      const chat = new CallerChat(
        'token',
        (clientId) => connected && (sent.push(clientId), true),
        memoryStorage(),
      );
      for (let n = 1; n <= 8; n++) chat.send(`mensaje ${n}`);
      expect(sent).toEqual([]);
      connected = true;
      chat.hooks.joined();
      // Only three await an ack at a time: a long outage's backlog stays inside the burst.
      expect(sent).toHaveLength(3);
      const ack = (clientId: string, outcome: 'stored' | 'refused', reason?: string) =>
        chat.hooks.onFrame({
          event: 'chat-ack',
          data:
            outcome === 'stored'
              ? { clientId, outcome, messageId: id(200 + sent.indexOf(clientId)), seq: 1 }
              : { clientId, outcome, reason },
        });
      ack(sent[0]!, 'stored');
      expect(sent).toHaveLength(4);
      const limited = sent[1]!;
      ack(limited, 'refused', 'rate-limited');
      // Rate-limited is not final: still sending, and sent again after the retry delay.
      expect(chat.hooks.unsent().map((entry) => entry.clientId)).toContain(limited);
      expect(sent.filter((clientId) => clientId === limited)).toHaveLength(1);
      vi.advanceTimersByTime(2_000);
      ack(sent[2]!, 'stored');
      ack(sent[3]!, 'stored');
      expect(sent.filter((clientId) => clientId === limited)).toHaveLength(2);
      for (let round = 0; round < 10; round++)
        for (const clientId of [...new Set(sent)])
          if (chat.hooks.unsent().some((entry) => entry.clientId === clientId))
            ack(clientId, 'stored');
      expect(chat.hooks.unsent()).toEqual([]);
      expect(new Set(sent).size).toBe(8);
      expect(
        chat
          .getState()
          .entries.every((entry) => entry.kind !== 'outgoing' || entry.delivery === 'stored'),
      ).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });
});
