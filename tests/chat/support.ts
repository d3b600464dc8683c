import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { call, signIn, type AuthStack } from '../auth/support';
import type { TestApi } from '../support/api';
import type { ReceivedFrame, TestSocket } from '../support/sockets';
import {
  callerSocket,
  joinSession,
  linkTokenIn,
  sentTexts,
  startStream,
  type ConnectionRequest,
} from '../tracking/support';

type Language = 'en' | 'es' | 'fr' | 'zh';

/**
 * A fake translation engine, in the test process (the API's `Translator` interface): it covers
 * the pairs it is given and answers `[<to>] <text>`. A text listed in `held` waits until the
 * test calls `release(text)`: an engine slower than the chat's deadline.
 */
export class FakeTranslator {
  readonly name = 'fake';
  readonly calls: { text: string; from: Language; to: Language }[] = [];
  private readonly gates = new Map<string, () => void>();
  private readonly waiting = new Map<string, Promise<void>>();

  constructor(private readonly pairs: [Language, Language][]) {}

  covers(from: Language, to: Language): boolean {
    return this.pairs.some(([a, b]) => a === from && b === to);
  }

  hold(text: string): void {
    this.waiting.set(
      text,
      new Promise((resolve) => {
        this.gates.set(text, resolve);
      }),
    );
  }

  release(text: string): void {
    this.gates.get(text)?.();
  }

  async translate(
    text: string,
    from: Language,
    to: Language,
    _signal: AbortSignal,
  ): Promise<{ status: 'translated'; text: string; engine: string }> {
    this.calls.push({ text, from, to });
    await this.waiting.get(text);
    return { status: 'translated', text: `[${to}] ${text}`, engine: 'fake' };
  }
}

export interface ChatSession {
  authToken: string;
  request: ConnectionRequest;
  callerId: string;
  linkToken: string;
  dispatcher: TestSocket;
  caller: TestSocket;
}

/**
 * A running session whose caller was texted a link in `language` and opened it (a caller socket
 * that never sends a fix), with its dispatcher's socket joined; the chat not opened yet.
 */
export async function chatSession(
  api: TestApi,
  email: string,
  phoneNumber: string,
  language: Language = 'en',
): Promise<ChatSession> {
  const authToken = await signIn(api, email);
  const request = await startStream(api, authToken, phoneNumber);
  const dispatcher = await joinSession(api, request);
  const texted = await call(api, 'POST', '/api/v1/location/request-text-message-location', {
    token: authToken,
    body: { connectionRequestUuid: request.uuid, language },
  });
  expect(texted.status).toBe(200);
  const texts = await sentTexts(api, phoneNumber);
  const linkToken = linkTokenIn(texts[texts.length - 1]!.body);
  const caller = await callerSocket(api, linkToken);
  return { authToken, request, callerId: request.id, linkToken, dispatcher, caller };
}

export async function initiateChat(api: TestApi, session: ChatSession) {
  return call<{ chatInitiatedAt: string }>(
    api,
    'POST',
    `/api/v1/location/chat-initiated/${session.request.uuid}`,
    { token: session.authToken, body: {} },
  );
}

/** Sends a chat frame and resolves with its `chat-ack`. */
export async function chat(
  socket: TestSocket,
  data: Record<string, unknown>,
): Promise<ReceivedFrame> {
  const clientId = (data.clientId as string | undefined) ?? randomUUID();
  const seen = socket.of('chat-ack').filter((frame) => frame.data.clientId === clientId).length;
  socket.send('chat', { ...data, clientId });
  await socket.next(
    () => socket.of('chat-ack').filter((frame) => frame.data.clientId === clientId).length > seen,
  );
  return socket.of('chat-ack').filter((frame) => frame.data.clientId === clientId)[seen]!;
}

/** The chat events a socket received, in arrival order. */
export function chatEvents(socket: TestSocket): ReceivedFrame[] {
  return socket.frames.filter(
    (frame) => frame.event.startsWith('chat-') && frame.event !== 'chat-ack',
  );
}

/** Seqs strictly increasing: every event once, in order. */
export function expectInOrderOnce(frames: ReceivedFrame[]): void {
  const seqs = frames.map((frame) => Number(frame.data.seq));
  expect(seqs).toEqual([...new Set(seqs)].sort((a, b) => a - b));
}

export type { AuthStack };
