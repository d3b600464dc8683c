import { callerTexts } from '@locus/contract';
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from '../support/browser';
import type { ReceivedFrame } from '../support/sockets';
import { apiSignIn, startAuthEnvironment, type AuthEnvironment } from './auth-support';
import { trackingHelpers } from './tracking-support';

// The chat from the caller's side (issue 12), in real Chromium against the real API and the
// offline engine (Apertium, the default): a Spanish caller who refuses location still reads the
// dispatcher in Spanish, with the English one tap away, and answers in Spanish; the dispatcher
// gets it with an English translation; a reload shows the same history once.

let env: AuthEnvironment;

beforeAll(async () => {
  env = await startAuthEnvironment();
});

afterAll(async () => {
  await env?.close();
});

const { textedSession, callerPhone, endActiveSessions } = trackingHelpers(() => env);

afterEach(() => endActiveSessions());

type ChatMessage = ReceivedFrame['data'] & {
  from: string;
  text: string;
  clientId: string | null;
  translation: { language: string; text: string } | null;
  translationStatus: string;
};

describe("the chat on the caller's page", () => {
  it('a Spanish caller who refuses location chats with an English-speaking dispatcher, translated offline', async () => {
    const t = callerTexts.es.page;
    const session = await textedSession('+12025550231', 'es');
    const caller = await callerPhone({ grant: false });
    await caller.page.goto(session.link);
    await caller.page.getByText(t.requestFrom('Demo County 911')).waitFor();

    // The caller refuses location; the page's socket is open all the same.
    await caller.page.getByRole('button', { name: t.shareButton }).click();
    await caller.page.getByRole('heading', { name: t.deniedTitle }).waitFor();
    const connected = await session.dispatcher.next(
      (frame) => frame.event === 'caller-connected' && frame.data.connected === true,
    );
    const callerId = connected.data.callerId as string;
    expect(session.dispatcher.of('new-location-available')).toHaveLength(0);

    // The dispatcher opens the chat: the caller's page shows it below the refusal.
    const { token } = await apiSignIn(env.api.url, 'dispatcher@demo-county.test');
    const opened = await fetch(
      `${env.api.url}/api/v1/location/chat-initiated/${session.sessionId}`,
      {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: '{}',
      },
    );
    expect(opened.status).toBe(200);
    await caller.page.getByRole('heading', { name: t.chatTitle }).waitFor();
    const log = caller.page.getByRole('log', { name: t.chatLogLabel });
    await log.waitFor();

    // The dispatcher writes in English; the caller reads it in Spanish, the English a tap away.
    session.dispatcher.send('chat', {
      callerId,
      clientId: randomUUID(),
      text: 'Help is on the way. Are you in the house?',
    });
    const sent = await session.dispatcher.next(
      (frame) =>
        frame.event === 'chat-message' && (frame.data as ChatMessage).from === 'dispatcher',
    );
    expect((sent.data as ChatMessage).text).toBe('Help is on the way. Are you in the house?');
    const translated = log.getByText(/ayuda/i).first();
    await translated.waitFor();
    expect(await log.getByText('Help is on the way. Are you in the house?').count()).toBe(0);
    await log.getByRole('button', { name: t.chatShowOriginal }).click();
    await log.getByText('Help is on the way. Are you in the house?').waitFor();
    await log.getByRole('button', { name: t.chatShowTranslation }).waitFor();
    await expectAccessible(caller.page, 'es: chat, refused location, original shown');

    // The caller answers in Spanish; the dispatcher gets it with an English translation.
    const input = caller.page.getByLabel(t.chatInputLabel);
    await input.fill('Estoy en la casa. <b>no</b>');
    await caller.page.getByRole('button', { name: t.chatSendButton }).click();
    const fromCaller = (
      await session.dispatcher.next(
        (frame) => frame.event === 'chat-message' && (frame.data as ChatMessage).from === 'caller',
      )
    ).data as ChatMessage;
    expect(fromCaller.text).toBe('Estoy en la casa. <b>no</b>');
    const english = fromCaller.translation?.text ?? (await translationOf(fromCaller));
    expect(english).toMatch(/house/i);
    // Shown as text on the caller's page, not as markup.
    await log.getByText('Estoy en la casa. <b>no</b>').waitFor();
    expect(await log.locator('b').count()).toBe(0);

    // A reload shows the same history, each message once.
    await caller.page.reload();
    await caller.page.getByRole('heading', { name: t.chatTitle }).waitFor();
    const reloaded = caller.page.getByRole('log', { name: t.chatLogLabel });
    await reloaded.getByText('Estoy en la casa. <b>no</b>').waitFor();
    await reloaded.getByText(/ayuda/i).first().waitFor();
    expect(await reloaded.getByRole('listitem').count()).toBe(2);
    await caller.context.close();
    await session.dispatcher.close();

    /** A caller's message announced `pending`: its `chat-translation` follows. */
    async function translationOf(message: ChatMessage): Promise<string | undefined> {
      const later = await session.dispatcher.next(
        (frame) => frame.event === 'chat-translation' && frame.data.messageId === message.messageId,
      );
      return (later.data as { translation: { text: string } | null }).translation?.text;
    }
  }, 120_000);
});
