import { callerTexts } from '@locus/contract';
import type { BrowserContext, Page, WebSocketRoute } from 'playwright-core';
import { expect } from 'vitest';
import { expectAccessible } from '../support/browser';
import { newPage, signInWithForm, type AuthEnvironment } from './auth-support';
import { trackingHelpers } from './tracking-support';

/**
 * What the case-transfer browser tests share (issue 12): three contexts (dispatcher 1 Dana,
 * dispatcher 2 Devon of the same team, the caller's phone), a live case, an offer to Devon, and
 * the page parts the tests read.
 */
export const DISPATCHER_2 = 'dispatcher2@demo-county.test';
export const DANA = 'Dana Dispatcher';
export const DEVON = 'Devon Dispatcher';

/** axe on the modal alone: the pages behind are checked by their own tests. */
export const MODAL = '.mantine-Modal-content';

/** The fixes the dispatcher's map shows ("3 fixes"). */
export async function fixCount(page: Page): Promise<number> {
  const text = await page.getByTestId('fix-count').innerText();
  return Number(/\d+/.exec(text)?.[0] ?? 0);
}

/** The dispatcher's log, as text. */
export const logText = (page: Page) => page.getByRole('region', { name: 'Log' }).innerText();

export const chatPanel = (page: Page) => page.getByRole('region', { name: 'Chat with caller' });
export const chatMessage = (page: Page, text: string) =>
  chatPanel(page)
    .getByRole('log', { name: 'Messages' })
    .getByTestId('chat-message')
    .filter({ hasText: text });

/** The colleague's prompt, on whatever page of the app they are. */
export const promptOf = (page: Page) => page.getByRole('dialog', { name: 'Case transfer' });

/**
 * A context whose network can be cut like a phone's in a tunnel: every socket of its pages goes
 * through Playwright to the real server, so `drop` can close both ends of each (the server sees
 * the dispatcher gone) and keep new ones from connecting until `restore`. Chromium's offline
 * emulation alone leaves an open WebSocket open.
 */
export async function cuttableNetwork(context: BrowserContext) {
  const sockets: { page: WebSocketRoute; server: WebSocketRoute }[] = [];
  await context.routeWebSocket(/.*/, (page) => {
    sockets.push({ page, server: page.connectToServer() });
  });
  return {
    async drop(): Promise<void> {
      await context.setOffline(true);
      for (const { page, server } of sockets.splice(0)) {
        await server.close({ code: 1001 }).catch(() => undefined);
        await page.close({ code: 1006 }).catch(() => undefined);
      }
    },
    /** Online again: the browser's `online` event makes the page reconnect at once. */
    restore: () => context.setOffline(false),
  };
}

export function caseTransferHelpers(environment: () => AuthEnvironment) {
  const tracking = trackingHelpers(environment);
  const { waitForSms, callerLinkIn, callerPhone, endActiveSessions } = tracking;
  const en = callerTexts.en.page;
  const es = callerTexts.es.page;

  /** Every browser context a test opened: closed after it, even when it failed half-way. */
  const contexts: BrowserContext[] = [];

  async function opened<T extends { context: BrowserContext }>(page: Promise<T>): Promise<T> {
    const result = await page;
    if (!contexts.includes(result.context)) contexts.push(result.context);
    // Three browsers on a busy machine: a click may wait longer for a page to settle.
    result.context.setDefaultTimeout(30_000);
    return result;
  }

  /**
   * A dispatcher signed in on the dashboard (given more time than usual to load: see above).
   * `prepare` runs on the context before anything loads (a cuttable network, say).
   */
  async function dispatcherPage(
    email = 'dispatcher@demo-county.test',
    prepare?: (context: BrowserContext) => Promise<void>,
  ) {
    const { page, context } = await newPage(environment().browser);
    contexts.push(context);
    context.setDefaultTimeout(30_000);
    context.setDefaultNavigationTimeout(30_000);
    await prepare?.(context);
    await signInWithForm(page, environment().api.url, email);
    return { page, context };
  }

  /**
   * Dispatcher 1 locates `number`, texts it, and the caller shares: both pages are returned with
   * the first fix on dispatcher 1's map.
   */
  async function liveCase(
    number: string,
    {
      spanish = false,
      prepare,
    }: { spanish?: boolean; prepare?: (context: BrowserContext) => Promise<void> } = {},
  ) {
    const dispatcher = await opened(dispatcherPage(undefined, prepare));
    await dispatcher.page.getByLabel('Phone number').fill(number);
    await dispatcher.page.getByRole('button', { name: 'Locate' }).click();
    const smsPrompt = dispatcher.page.getByRole('dialog', { name: 'Send SMS to the caller?' });
    if (spanish) await smsPrompt.getByRole('radio', { name: 'Spanish' }).check();
    await smsPrompt.getByRole('button', { name: 'Send SMS' }).click();
    // The prompt closes once the server took the text; a refusal stays in it, in its words.
    await smsPrompt.waitFor({ state: 'detached' }).catch(async (error: unknown) => {
      const shown = await smsPrompt.innerText().catch(() => '(gone)');
      throw new Error(`the SMS prompt stayed open after Send SMS: ${shown}`, { cause: error });
    });
    const texts = spanish ? es : en;
    const caller = await opened(callerPhone({ grant: true }));
    await caller.page.goto(callerLinkIn(await waitForSms(number)));
    await caller.page.getByRole('button', { name: texts.shareButton }).click();
    await caller.page.getByText(texts.sharingTitle).first().waitFor();
    await dispatcher.page.getByTitle(`Caller ${number}`).waitFor();
    return { dispatcher, caller };
  }

  /** The caller moves: a new fix from their page. */
  let step = 0;
  async function move(caller: { context: BrowserContext }): Promise<void> {
    step += 1;
    await caller.context.setGeolocation({
      latitude: 38.8977 + step * 0.0007,
      longitude: -77.0365 + step * 0.0007,
      accuracy: 10,
    });
  }

  /**
   * Dispatcher 1 opens the picker and offers the case to Devon, listed with `status`
   * ("Available", or "Running 1 case" when Devon is on one).
   */
  async function offerToDevon(
    page: Page,
    number: string,
    { checkAccessible = false, status = 'Available' } = {},
  ) {
    await page.getByRole('button', { name: 'Transfer case' }).click();
    const picker = page.getByRole('dialog', { name: `Transfer the case for ${number}` });
    // Devon is online (their console is open), so the offer is enabled.
    const offer = picker.getByRole('button', { name: `Offer the case to ${DEVON} (${status})` });
    await offer.waitFor();
    await expect.poll(() => offer.isEnabled(), { timeout: 20_000 }).toBe(true);
    if (checkAccessible) await expectAccessible(page, 'the transfer picker', MODAL);
    await offer.click();
    await picker.getByText(`Waiting for ${DEVON} to answer…`).waitFor();
    await picker.getByText(/\d+ seconds left/).waitFor();
    return picker;
  }

  /** After each test: its browsers closed, and no session left for the next one to resume. */
  async function cleanUp(): Promise<void> {
    await Promise.all(contexts.splice(0).map((context) => context.close().catch(() => undefined)));
    await endActiveSessions();
    await endActiveSessions(DISPATCHER_2);
  }

  return { ...tracking, opened, dispatcherPage, liveCase, move, offerToDevon, cleanUp };
}
