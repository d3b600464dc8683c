import { callerTexts } from '@locus/contract';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FakeLibreTranslate } from '../fakes/libretranslate-server';
import { expectAccessible } from '../support/browser';
import { fixAt, TestSocket } from '../support/sockets';
import { startAuthEnvironment, type AuthEnvironment } from './auth-support';
import { caseTransferHelpers, DISPATCHER_2, promptOf } from './case-transfer-support';
import { trackingHelpers } from './tracking-support';

/**
 * The dispatcher's side of the chat with the caller (issue 12): the chat panel, its
 * translations both ways, quick replies, the unread count, a reload, and Download Chat. The
 * caller answers from their page, or (where the test is about the dispatcher's side only) from
 * their phone's socket, as the page would.
 */

/** What the offline engine makes of a text: the test asks Debian's Apertium itself. */
function apertium(mode: 'eng-spa' | 'spa-eng', text: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'locus-chat-test-'));
  try {
    // From a file: Apertium's text reader refuses a pipe from Node.
    writeFileSync(join(dir, 'in.txt'), `${text}\n`);
    return execFileSync('apertium', ['-u', mode, join(dir, 'in.txt')], {
      encoding: 'utf8',
    }).trim();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function locateInSpanish(page: Page, number: string): Promise<void> {
  await page.getByLabel('Phone number').fill(number);
  await page.getByRole('button', { name: 'Locate' }).click();
  const prompt = page.getByRole('dialog', { name: 'Send SMS to the caller?' });
  await prompt.getByRole('radio', { name: 'Spanish' }).check();
  await prompt.getByRole('button', { name: 'Send SMS' }).click();
  await page.getByRole('dialog', { name: /Waiting for location/i }).waitFor();
}

/** The caller's phone: its socket (the link's token), sharing one fix, and asking for its chat. */
async function callerSocket(env: AuthEnvironment, link: string): Promise<TestSocket> {
  const token = new URL(link).searchParams.get('token')!;
  const socket = await TestSocket.open(`${env.api.wsUrl}/api/v1/caller/socket?token=${token}`);
  socket.send('fix', fixAt(Date.now(), 0));
  socket.send('chat-join', { lastSeq: 0 });
  return socket;
}

const chatPanel = (page: Page) => page.getByRole('region', { name: 'Chat with caller' });
const messages = (page: Page) => chatPanel(page).getByRole('log', { name: 'Messages' });

/** Opens End Tracking's confirmation, says whether it offers Download Chat, and cancels. */
async function offersDownload(page: Page): Promise<boolean> {
  await page.getByRole('button', { name: 'End Tracking' }).click();
  const confirm = page.getByRole('dialog', { name: 'Are you sure?' });
  await confirm.getByRole('button', { name: 'End Tracking' }).waitFor();
  const offered = await confirm.getByRole('button', { name: 'Download Chat' }).isVisible();
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await confirm.waitFor({ state: 'detached' });
  return offered;
}

/** The newest message from the caller, or the dispatcher's first: a locator that stays put when its text is toggled. */
const lastFromCaller = (page: Page) => messages(page).locator('[data-from="caller"]').last();

describe('chatting with the caller through the offline engine', { timeout: 300_000 }, () => {
  let env: AuthEnvironment;
  beforeAll(async () => {
    env = await startAuthEnvironment();
  });
  afterAll(async () => {
    await env?.close();
  });
  const { waitForSms, callerLinkIn, dispatcherPage, callerPhone, endActiveSessions } =
    trackingHelpers(() => env);
  afterEach(() => endActiveSessions());

  it("translates both ways with the caller's page, survives a reload, and offers Download Chat only after chat and above 960 px", async () => {
    const number = '+12025550163';
    const es = callerTexts.es.page;
    const { page, context } = await dispatcherPage();
    await locateInSpanish(page, number);
    // The phone reports one fix (closing the waiting modal), then the caller reads the link on
    // a page that does not share: the chat works either way.
    const link = callerLinkIn(await waitForSms(number));
    const firstFix = await callerSocket(env, link);
    await page
      .getByRole('dialog', { name: /Waiting for location/i })
      .waitFor({ state: 'detached' });
    await firstFix.close();
    const phone = await callerPhone({ grant: false });
    await phone.page.goto(link);
    await phone.page.getByRole('button', { name: es.shareButton }).waitFor();

    // No chat yet: no Download Chat.
    expect(await offersDownload(page)).toBe(false);

    await page.getByRole('button', { name: 'Chat with caller' }).click();
    const input = chatPanel(page).getByRole('textbox', { name: 'Message to the caller' });
    await input.waitFor();
    const callerChat = phone.page.getByRole('region', { name: es.chatTitle });
    const callerLog = callerChat.getByRole('log', { name: es.chatLogLabel });
    await callerChat.waitFor();
    await expectAccessible(page, 'the chat panel open');

    // The dispatcher writes in English; the caller reads Spanish, from Apertium.
    const question = 'Where are you?';
    const spanishQuestion = apertium('eng-spa', question);
    await input.fill(question);
    await input.press('Enter');
    await callerLog.getByText(spanishQuestion).waitFor();
    expect(await input.inputValue()).toBe('');
    const mine = messages(page).locator('[data-from="dispatcher"]').first();
    await mine.getByText(question).waitFor();
    await mine.getByRole('button', { name: 'Show translation' }).click();
    await mine.getByText(spanishQuestion).waitFor();

    // A quick reply arrives in Spanish from the catalogue, no engine needed.
    await chatPanel(page)
      .getByRole('button', { name: callerTexts.en.quickReplies['are-you-safe'] })
      .click();
    await callerLog.getByText(callerTexts.es.quickReplies['are-you-safe']).waitFor();

    // The caller answers in Spanish: the dispatcher reads English, the original one tap away.
    const answer = 'Hay un hombre en la casa.';
    const english = apertium('spa-eng', answer);
    const callerInput = callerChat.getByRole('textbox', { name: es.chatInputLabel });
    await callerInput.fill(answer);
    await callerInput.press('Enter');
    await messages(page).getByTestId('chat-message').filter({ hasText: english }).waitFor();
    const theirs = lastFromCaller(page);
    await theirs.getByRole('button', { name: 'Show original' }).click();
    await theirs.getByText(answer).waitFor();
    await theirs.getByRole('button', { name: 'Show translation' }).click();
    await theirs.getByText(english).waitFor();

    // With the panel closed, a new message is counted and announced.
    await chatPanel(page).getByRole('button', { name: 'Close chat' }).click();
    await callerInput.fill('Estoy en la cocina.');
    await callerInput.press('Enter');
    await page.getByRole('button', { name: /Chat with caller.*1 new/ }).waitFor();
    await expect
      .poll(() => page.getByTestId('announcer').innerText(), { timeout: 10_000 })
      .toContain(`Chat message from ${number}`);

    // Download Chat: offered above 960 px once chat was initiated, not at 900 px, and its file
    // holds both languages.
    await page.setViewportSize({ width: 900, height: 800 });
    expect(await offersDownload(page)).toBe(false);
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.getByRole('button', { name: 'End Tracking' }).click();
    const confirm = page.getByRole('dialog', { name: 'Are you sure?' });
    const downloading = page.waitForEvent('download');
    await confirm.getByRole('button', { name: 'Download Chat' }).click();
    const file = await readFile((await (await downloading).path())!, 'utf8');
    for (const text of [question, spanishQuestion, answer, english]) expect(file).toContain(text);
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });

    // A reload rejoins the session and its replay rebuilds the whole chat.
    await page.reload();
    await page.getByRole('button', { name: 'Chat with caller' }).click();
    for (const text of [question, callerTexts.en.quickReplies['are-you-safe'], english])
      await messages(page).getByTestId('chat-message').filter({ hasText: text }).waitFor();
    await expect.poll(() => messages(page).getByTestId('chat-message').count()).toBe(4);
    expect(await offersDownload(page)).toBe(true);

    // Ending still works as before, and the caller's page says so.
    await page.getByRole('button', { name: 'End Tracking' }).click();
    await confirm.getByRole('button', { name: 'End Tracking' }).click();
    await page.getByRole('button', { name: 'Locate' }).waitFor();
    await phone.page.getByText(es.endedTitle).waitFor();
    await phone.context.close();
    await context.close();
  });

  it('renders a message as text, never as HTML', async () => {
    const number = '+12025550164';
    const { page, context } = await dispatcherPage();
    await locateInSpanish(page, number);
    const caller = await callerSocket(env, callerLinkIn(await waitForSms(number)));
    await page
      .getByRole('dialog', { name: /Waiting for location/i })
      .waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Chat with caller' }).click();
    await caller.event('chat-opened');
    const markup = '<img src=x onerror="window.__chatInjected=1"><b>hola</b>';
    caller.send('chat', { clientId: crypto.randomUUID(), text: markup });
    const shown = messages(page).getByTestId('chat-message').first();
    await shown.getByRole('button', { name: 'Show original' }).click();
    await shown.getByText(markup).waitFor();
    expect(await messages(page).locator('img, b').count()).toBe(0);
    expect(await page.evaluate(() => (window as { __chatInjected?: number }).__chatInjected)).toBe(
      undefined,
    );
    await caller.close();
    await context.close();
  });
});

describe('chatting with the caller through a LibreTranslate server', { timeout: 300_000 }, () => {
  let env: AuthEnvironment;
  let translator: FakeLibreTranslate;
  beforeAll(async () => {
    translator = await FakeLibreTranslate.start();
    env = await startAuthEnvironment({
      TRANSLATION_PROVIDER: 'libretranslate',
      LIBRETRANSLATE_URL: translator.url,
    });
  });
  afterAll(async () => {
    await env?.close();
    await translator?.close();
  });
  const { liveCase, opened, dispatcherPage, offerToDevon, cleanUp } = caseTransferHelpers(
    () => env,
  );
  afterEach(cleanUp);

  it("the Spanish caller's page and the colleague who took the case chat through the provider", async () => {
    translator.phrases.set('en:es:Can you talk?', '¿Puede hablar?');
    translator.phrases.set('es:en:No puedo hablar.', 'I cannot talk.');
    const number = '+12025550165';
    const es = callerTexts.es.page;
    // Three browsers: the caller's phone, dispatcher 1 who offers the case, and Devon.
    const { dispatcher, caller } = await liveCase(number, { spanish: true });
    const colleague = await opened(dispatcherPage(DISPATCHER_2));
    await offerToDevon(dispatcher.page, number);
    await promptOf(colleague.page).getByRole('button', { name: 'Accept' }).click();
    await colleague.page.getByRole('button', { name: 'End Tracking' }).waitFor();

    await colleague.page.getByRole('button', { name: /Chat with caller/ }).click();
    const callerChat = caller.page.getByRole('region', { name: es.chatTitle });
    const callerLog = callerChat.getByRole('log', { name: es.chatLogLabel });
    const input = chatPanel(colleague.page).getByRole('textbox', {
      name: 'Message to the caller',
    });
    await input.fill('Can you talk?');
    await input.press('Enter');
    // The caller reads the provider's Spanish on their page.
    await callerLog.getByText('¿Puede hablar?').waitFor({ timeout: 60_000 });

    const callerInput = callerChat.getByRole('textbox', { name: es.chatInputLabel });
    await callerInput.fill('No puedo hablar.');
    await callerInput.press('Enter');
    await messages(colleague.page)
      .getByTestId('chat-message')
      .filter({ hasText: 'I cannot talk.' })
      .waitFor({ timeout: 60_000 });
    const theirs = lastFromCaller(colleague.page);
    await theirs.getByRole('button', { name: 'Show original' }).click();
    await theirs.getByText('No puedo hablar.').waitFor();
    expect(translator.requests).toContainEqual(
      expect.objectContaining({ q: 'Can you talk?', source: 'en', target: 'es' }),
    );
    expect(translator.requests).toContainEqual(
      expect.objectContaining({ q: 'No puedo hablar.', source: 'es', target: 'en' }),
    );
  });
});
