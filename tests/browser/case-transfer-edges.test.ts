import { callerTexts } from '@locus/contract';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from '../support/browser';
import { startAuthEnvironment, type AuthEnvironment } from './auth-support';
import {
  caseTransferHelpers,
  chatPanel,
  cuttableNetwork,
  DANA,
  DEVON,
  DISPATCHER_2,
  fixCount,
  logText,
  MODAL,
  promptOf,
} from './case-transfer-support';

/**
 * Issue 12, the edges of a case transfer in the browser (the main flows are in
 * case-transfer.test.ts): dispatcher 1 offline while the colleague accepts, a colleague already
 * on a case, the offerer reloading with an offer pending, and answering by keyboard alone.
 */
let env: AuthEnvironment;

beforeAll(async () => {
  env = await startAuthEnvironment();
});

afterAll(async () => {
  await env?.close();
});

const { liveCase, opened, dispatcherPage, move, offerToDevon, cleanUp, waitForSms } =
  caseTransferHelpers(() => env);

afterEach(cleanUp);

const en = callerTexts.en.page;
const banner = (page: Page) => page.getByRole('banner').getByText(`Transferred to ${DEVON}`);

/** What has the keyboard focus: its accessible name as far as a test needs it. */
const focusedName = (page: Page) =>
  page.evaluate(() => {
    const element = document.activeElement;
    if (!element) return '';
    const label =
      element.getAttribute('aria-label') ??
      (element instanceof HTMLTextAreaElement || element instanceof HTMLInputElement
        ? element.labels?.[0]?.textContent
        : null);
    return (label ?? element.textContent ?? '').trim();
  });

/** Presses Tab until the element named `name` has the focus (as a keyboard user would). */
async function tabTo(page: Page, name: string): Promise<void> {
  for (let presses = 0; presses < 80; presses += 1) {
    await page.keyboard.press('Tab');
    if ((await focusedName(page)) === name) return;
  }
  throw new Error(`Tab never reached "${name}"`);
}

describe('case transfer, the edges', { timeout: 300_000 }, () => {
  it('shows dispatcher 1, offline when the colleague accepted, the case as transferred once back online', async () => {
    const number = '+12025550191';
    let network: Awaited<ReturnType<typeof cuttableNetwork>> | undefined;
    const { dispatcher, caller } = await liveCase(number, {
      prepare: async (context) => {
        network = await cuttableNetwork(context);
      },
    });
    const colleague = await opened(dispatcherPage(DISPATCHER_2));
    await offerToDevon(dispatcher.page, number);

    // Dana's connection drops; Devon accepts meanwhile.
    await network!.drop();
    await promptOf(colleague.page).getByRole('button', { name: 'Accept' }).click();
    await colleague.page.getByRole('button', { name: 'End Tracking' }).waitFor();
    await expect.poll(() => fixCount(colleague.page), { timeout: 10_000 }).toBe(1);
    expect(await banner(dispatcher.page).count()).toBe(0);

    // Back online, Dana's socket is refused (its token went with the case) and her page asks
    // what became of the case: it shows where it went, read-only, not an error.
    await network!.restore();
    await banner(dispatcher.page).waitFor({ timeout: 30_000 });
    await dispatcher.page.getByTestId('transferred-notice').waitFor();
    expect(await dispatcher.page.getByText(`Status: Transferred to ${DEVON}`).count()).toBe(1);
    expect(await dispatcher.page.getByRole('button', { name: 'End Tracking' }).count()).toBe(0);
    expect(await dispatcher.page.getByRole('button', { name: 'Transfer case' }).count()).toBe(0);
    expect(await dispatcher.page.getByRole('button', { name: 'Chat with caller' }).count()).toBe(0);
    expect(await dispatcher.page.getByRole('button', { name: 'Reconnect' }).count()).toBe(0);
    expect(await logText(dispatcher.page)).toContain(`Transferred to ${DEVON}`);
    expect(await fixCount(dispatcher.page)).toBe(1);
    await expectAccessible(dispatcher.page, 'the read-only "Transferred to" view');

    // The caller's next fix is Devon's alone.
    await move(caller);
    await expect.poll(() => fixCount(colleague.page), { timeout: 10_000 }).toBe(2);
    expect(await fixCount(dispatcher.page)).toBe(1);

    // A reload finds no case of Dana's to rejoin: an empty dashboard, ready for the next call.
    await dispatcher.page.reload();
    await dispatcher.page.getByRole('button', { name: 'Locate' }).waitFor();
    expect(await dispatcher.page.getByTitle(`Caller ${number}`).count()).toBe(0);
  });

  it('keeps a colleague on another case from accepting into it; they can still decline', async () => {
    // Devon texts his own caller and waits for them.
    const colleague = await opened(dispatcherPage(DISPATCHER_2));
    const own = '+12025550193';
    await colleague.page.getByLabel('Phone number').fill(own);
    await colleague.page.getByRole('button', { name: 'Locate' }).click();
    await colleague.page
      .getByRole('dialog', { name: 'Send SMS to the caller?' })
      .getByRole('button', { name: 'Send SMS' })
      .click();
    await waitForSms(own);
    const waiting = colleague.page.getByRole('dialog', { name: /Waiting for location/ });
    await waiting.waitFor();

    const number = '+12025550192';
    const { dispatcher } = await liveCase(number);
    const picker = await offerToDevon(dispatcher.page, number, { status: 'Running 1 case' });

    const prompt = promptOf(colleague.page);
    await prompt
      .getByTestId('case-transfer-busy')
      .getByText(
        `You are tracking another case and cannot take this one. Deny it, or end your case and ask ${DANA} to offer it again.`,
      )
      .waitFor();
    expect(await prompt.getByRole('button', { name: 'Accept' }).isDisabled()).toBe(true);
    await expectAccessible(colleague.page, 'the case-transfer prompt, busy', MODAL);

    await prompt.getByRole('button', { name: 'Deny' }).click();
    await prompt.waitFor({ state: 'detached' });
    await picker.getByText(`${DEVON} declined. The case stays with you.`).waitFor();
    // Each keeps his own: Devon is still waiting for his caller, Dana still tracks hers.
    await dispatcher.page.getByRole('button', { name: 'End Tracking' }).waitFor();
    expect(await colleague.page.getByTitle(`Caller ${number}`).count()).toBe(0);
    // Devon ends his own (the clean-up's rejoin does not find a session idle for a minute
    // whose caller never connected, and the next test needs Devon free).
    await waiting.getByRole('button', { name: 'Stop tracking' }).click();
    await colleague.page
      .getByRole('dialog', { name: 'Are you sure?' })
      .getByRole('button', { name: 'End Tracking' })
      .click();
    await colleague.page.getByRole('button', { name: 'Locate' }).waitFor();
  });

  it("keeps the offerer's pending offer across a reload, and brings them the colleague's answer given by keyboard", async () => {
    const number = '+12025550194';
    const { dispatcher } = await liveCase(number);
    // Devon is elsewhere in the app.
    const colleague = await opened(dispatcherPage(DISPATCHER_2));
    await colleague.page.goto(`${env.api.url}/training`);
    await offerToDevon(dispatcher.page, number);
    const prompt = promptOf(colleague.page);
    await prompt.getByText(/\d+ seconds left to answer/).waitFor();

    // Dana reloads: her dashboard rejoins the case, and the offer is still pending.
    await dispatcher.page.reload();
    await dispatcher.page.getByTitle(`Caller ${number}`).waitFor();
    await dispatcher.page.getByRole('button', { name: /^Transfer pending: \d+ s$/ }).click();
    const picker = dispatcher.page.getByRole('dialog', { name: `Transfer the case for ${number}` });
    await picker.getByText(`Waiting for ${DEVON} to answer…`).waitFor();
    await picker.getByText(/\d+ seconds left/).waitFor();
    await picker.getByRole('button', { name: 'Cancel transfer' }).waitFor();

    // Devon answers with the keyboard alone: the prompt took the focus, and Escape denies.
    await expect.poll(() => focusedName(colleague.page)).toBe('Accept');
    await colleague.page.keyboard.press('Escape');
    await prompt.waitFor({ state: 'detached' });
    await picker.getByText(`${DEVON} declined. The case stays with you.`).waitFor();
    await expect
      .poll(() => logText(dispatcher.page), { timeout: 10_000 })
      .toContain(`Transfer declined by ${DEVON}`);
    await dispatcher.page.getByRole('button', { name: 'End Tracking' }).waitFor();
  });

  it('sends a chat message by keyboard alone, and the End Tracking confirmation offering Download Chat is accessible', async () => {
    const number = '+12025550195';
    const { dispatcher, caller } = await liveCase(number);
    const { page } = dispatcher;

    // Keyboard only: to "Chat with caller", open it, to the message box, type, Enter.
    await tabTo(page, 'Chat with caller');
    await page.keyboard.press('Enter');
    await chatPanel(page).waitFor();
    await tabTo(page, 'Message to the caller');
    const line = 'Stay where you are, we are coming.';
    await page.keyboard.type(line);
    await page.keyboard.press('Enter');
    await caller.page
      .getByRole('region', { name: en.chatTitle })
      .getByRole('log', { name: en.chatLogLabel })
      .getByText(line)
      .waitFor();

    // Chat was initiated and the screen is wider than 960 px: Download Chat is offered.
    expect(page.viewportSize()!.width).toBeGreaterThan(960);
    await page.getByRole('button', { name: 'End Tracking' }).click();
    const confirm = page.getByRole('dialog', { name: 'Are you sure?' });
    await confirm.getByRole('button', { name: 'Download Chat' }).waitFor();
    await expectAccessible(page, 'the End Tracking confirmation with Download Chat', MODAL);
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
  });
});
