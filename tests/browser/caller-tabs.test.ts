import { callerTexts } from '@locus/contract';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from '../support/browser';
import type { ReceivedFrame } from '../support/sockets';
import { apiSignIn, startAuthEnvironment, type AuthEnvironment } from './auth-support';
import { trackingHelpers } from './tracking-support';

// One caller link open in four tabs of one browser. The server keeps three sockets per link and
// closes the oldest with 4409 when a fourth opens; the pushed-out tab must not push another
// out in turn (a loop that replays the chat and makes "caller connected" flicker forever). The
// tab the caller looks at, or the one sharing, holds the connection; the others wait, saying so.

let env: AuthEnvironment;

beforeAll(async () => {
  env = await startAuthEnvironment();
});

afterAll(async () => {
  await env?.close();
});

const { textedSession, callerPhone, endActiveSessions } = trackingHelpers(() => env);

afterEach(() => endActiveSessions());

/**
 * Headless Chromium reports every page visible, `bringToFront` included: the test plays the
 * browser's part. Each page starts visible (a tab just opened is the one looked at) and
 * `testSetHidden` hides or shows it and tells it so, as switching tabs does.
 */
function controllableVisibility(): void {
  let hidden = false;
  Object.defineProperty(document, 'visibilityState', {
    configurable: true,
    get: () => (hidden ? 'hidden' : 'visible'),
  });
  Object.defineProperty(document, 'hidden', { configurable: true, get: () => hidden });
  Object.assign(window, {
    testSetHidden: (value: boolean) => {
      hidden = value;
      document.dispatchEvent(new Event('visibilitychange'));
    },
  });
}

function setHidden(page: Page, hidden: boolean): Promise<void> {
  return page.evaluate((value) => {
    (window as unknown as { testSetHidden(value: boolean): void }).testSetHidden(value);
  }, hidden);
}

describe('a caller link open in several tabs', () => {
  it('four tabs settle with the tab in view connected and the others waiting; coming back to one takes the link over, and the sharing tab keeps sharing', async () => {
    const t = callerTexts.es.page;
    const session = await textedSession('+12025550251', 'es');
    const { context } = await callerPhone({ grant: true, latitude: 40.4168, longitude: -3.7038 });
    await context.addInitScript(controllableVisibility);
    const { dispatcher } = session;
    const connected = (value: boolean) => (frame: ReceivedFrame) =>
      frame.event === 'caller-connected' && frame.data.connected === value;
    const connects = () => dispatcher.frames.filter(connected(true)).length;
    const disconnects = () => dispatcher.frames.filter(connected(false)).length;

    // The caller opens the link four times, each tab in front of the one before.
    const tabs: Page[] = [];
    for (let index = 0; index < 4; index += 1) {
      const previous = tabs.at(-1);
      if (previous) await setHidden(previous, true);
      const page = await context.newPage();
      await page.goto(session.link);
      await page.getByText(t.requestFrom('Demo County 911')).waitFor();
      await dispatcher.next(() => connects() >= index + 1);
      tabs.push(page);
    }
    const [first, second, third, fourth] = tabs as [Page, Page, Page, Page];

    // The fourth socket pushed the first tab's out (4409). That tab is hidden and not sharing:
    // it waits, and says calmly, in the page's language, why.
    await first.getByRole('main').getByText(t.openInAnotherTab).waitFor();
    for (const tab of [second, third, fourth])
      expect(await tab.getByRole('main').getByText(t.openInAnotherTab).count()).toBe(0);
    await expectAccessible(first, 'es: the link open in another tab');

    // The tab in view shares and chats. Until then, over all those frames and round trips, no
    // tab connected again, and the dispatcher never heard "disconnected": the caller never was.
    await fourth.getByRole('button', { name: t.shareButton }).click();
    const fix = await dispatcher.event('new-location-available');
    expect(fix.data).toMatchObject({ latitude: 40.4168, longitude: -3.7038 });
    const { token } = await apiSignIn(env.api.url, 'dispatcher@demo-county.test');
    const chatOpened = await fetch(
      `${env.api.url}/api/v1/location/chat-initiated/${session.sessionId}`,
      {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: '{}',
      },
    );
    expect(chatOpened.status).toBe(200);
    await sendChat(fourth, 'Estoy en la cocina.');
    expect(connects()).toBe(4);
    expect(disconnects()).toBe(0);
    expect(await first.getByRole('main').getByText(t.openInAnotherTab).count()).toBe(1);

    // The caller goes back to the first tab, leaving the sharing one in the background. The
    // first takes the link back and pushes out the oldest socket, the second tab's; that tab is
    // hidden and not sharing, so it waits in turn. The sharing tab keeps its connection.
    await setHidden(fourth, true);
    await setHidden(first, false);
    await second.getByRole('main').getByText(t.openInAnotherTab).waitFor();
    await first.getByRole('main').getByText(t.openInAnotherTab).waitFor({ state: 'detached' });
    await sendChat(first, 'Sigo aquí.');
    await context.setGeolocation({ latitude: 40.42, longitude: -3.71, accuracy: 15 });
    await dispatcher.next(
      (frame) => frame.event === 'new-location-available' && frame.data.latitude === 40.42,
    );
    // Exactly one more connection (the first tab's); nobody pushed anybody out in a loop.
    expect(connects()).toBe(5);
    expect(disconnects()).toBe(0);
    for (const tab of [first, third, fourth])
      expect(await tab.getByRole('main').getByText(t.openInAnotherTab).count()).toBe(0);

    await context.close();
    await dispatcher.close();

    /**
     * The caller writes in `tab`'s chat; resolves once the dispatcher has the message and its
     * translation (none is left running when the test ends).
     */
    async function sendChat(tab: Page, text: string): Promise<void> {
      await tab.getByRole('heading', { name: t.chatTitle }).waitFor();
      await tab.getByLabel(t.chatInputLabel).fill(text);
      await tab.getByRole('button', { name: t.chatSendButton }).click();
      const message = await dispatcher.next(
        (frame) =>
          frame.event === 'chat-message' &&
          frame.data.from === 'caller' &&
          frame.data.text === text,
      );
      if (message.data.translationStatus === 'pending')
        await dispatcher.next(
          (frame) =>
            frame.event === 'chat-translation' && frame.data.messageId === message.data.messageId,
        );
    }
  }, 120_000);
});
