import { callerTexts } from '@locus/contract';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from '../support/browser';
import { startAuthEnvironment, type AuthEnvironment } from './auth-support';
import {
  caseTransferHelpers,
  chatMessage,
  chatPanel,
  DANA,
  DEVON,
  DISPATCHER_2,
  fixCount,
  logText,
  MODAL,
  promptOf,
} from './case-transfer-support';

/**
 * Issue 12, case transfer in the browser: three contexts (dispatcher 1 Dana, dispatcher 2 Devon
 * of the same team, the caller's phone). Offers stand for a short time here so that an expiry
 * can be watched (the default minute); long enough to answer one by hand on a busy machine.
 * The edge cases (offline, busy, reload, keyboard) are in case-transfer-edges.test.ts.
 */
const OFFER_TTL_MS = 60_000;

let env: AuthEnvironment;

beforeAll(async () => {
  env = await startAuthEnvironment({ CASE_TRANSFER_OFFER_TTL_MS: String(OFFER_TTL_MS) });
});

afterAll(async () => {
  await env?.close();
});

const { liveCase, opened, dispatcherPage, move, offerToDevon, cleanUp } = caseTransferHelpers(
  () => env,
);

afterEach(cleanUp);

const es = callerTexts.es.page;

/** What the offline engine makes of a text: the test asks Debian's Apertium itself. */
function apertium(mode: 'eng-spa' | 'spa-eng', text: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'locus-transfer-test-'));
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

const CHAT_LINE = 'Stay on this page, help is coming.';

describe('case transfer', { timeout: 400_000 }, () => {
  it('moves a live case to a colleague on another page, with its history and later fixes', async () => {
    const number = '+12025550181';
    // The caller's link is texted in Spanish: after the handover Devon chats through the engine.
    const { dispatcher, caller } = await liveCase(number, { spanish: true });
    // Devon works elsewhere in the app.
    const colleague = await opened(dispatcherPage(DISPATCHER_2));
    await colleague.page.goto(`${env.api.url}/training`);

    await move(caller);
    await expect.poll(() => fixCount(dispatcher.page), { timeout: 10_000 }).toBe(2);
    // A chat message before the handover travels with the case.
    await dispatcher.page.getByRole('button', { name: 'Chat with caller' }).click();
    const input = chatPanel(dispatcher.page).getByRole('textbox', {
      name: 'Message to the caller',
    });
    await input.fill(CHAT_LINE);
    await input.press('Enter');
    await chatMessage(dispatcher.page, CHAT_LINE).waitFor();

    await offerToDevon(dispatcher.page, number, { checkAccessible: true });

    const prompt = promptOf(colleague.page);
    await prompt.getByText(`${DANA} wants to transfer the case for ${number} to you`).waitFor();
    await prompt.getByText(/\d+ seconds left to answer/).waitFor();
    // Focus is on Accept, so a keyboard user answers at once.
    await expect
      .poll(() => colleague.page.evaluate(() => document.activeElement?.textContent ?? ''))
      .toBe('Accept');
    await expectAccessible(colleague.page, 'the case-transfer prompt', MODAL);
    await prompt.getByRole('button', { name: 'Accept' }).click();

    // Devon's dashboard opens the case with its whole history: both fixes, and the log.
    await colleague.page.waitForURL(/\/dashboard$/);
    await colleague.page.getByTitle(`Caller ${number}`).waitFor();
    await expect.poll(() => fixCount(colleague.page), { timeout: 10_000 }).toBe(2);
    await expect
      .poll(() => logText(colleague.page), { timeout: 10_000 })
      .toContain(`Transferred to ${DEVON}`);
    expect(await logText(colleague.page)).toContain('Caller connected');
    await colleague.page.getByRole('button', { name: 'End Tracking' }).waitFor();
    await colleague.page.getByRole('button', { name: /Chat with caller/ }).click();
    await chatMessage(colleague.page, CHAT_LINE).waitFor();

    // Devon and the caller chat, each in their own language, through the offline engine.
    const callerChat = caller.page.getByRole('region', { name: es.chatTitle });
    const callerLog = callerChat.getByRole('log', { name: es.chatLogLabel });
    const question = 'Are you hurt?';
    const spanishQuestion = apertium('eng-spa', question);
    const devonInput = chatPanel(colleague.page).getByRole('textbox', {
      name: 'Message to the caller',
    });
    await devonInput.fill(question);
    await devonInput.press('Enter');
    await callerLog.getByText(spanishQuestion).waitFor({ timeout: 60_000 });
    const answer = 'Estoy en el sótano.';
    const english = apertium('spa-eng', answer);
    const callerInput = callerChat.getByRole('textbox', { name: es.chatInputLabel });
    await callerInput.fill(answer);
    await callerInput.press('Enter');
    await chatMessage(colleague.page, english).waitFor({ timeout: 60_000 });
    const theirs = chatPanel(colleague.page).locator('[data-from="caller"]').last();
    await theirs.getByRole('button', { name: 'Show original' }).click();
    await theirs.getByText(answer).waitFor();

    // Dana's view says where the case went and acts on nothing.
    await dispatcher.page
      .getByRole('banner')
      .getByText(`Transferred to ${DEVON}`)
      .waitFor({ timeout: 10_000 });
    await dispatcher.page.getByTestId('transferred-notice').waitFor();
    expect(await dispatcher.page.getByRole('button', { name: 'End Tracking' }).count()).toBe(0);
    expect(await dispatcher.page.getByRole('button', { name: 'Transfer case' }).count()).toBe(0);
    expect(await dispatcher.page.getByText('Status: Transferred to').count()).toBe(1);
    // The map and the log stay.
    expect(await fixCount(dispatcher.page)).toBe(2);
    expect(await logText(dispatcher.page)).toContain(`Transferred to ${DEVON}`);

    // The caller noticed nothing; their next fix reaches Devon, and only Devon.
    await move(caller);
    await expect.poll(() => fixCount(colleague.page), { timeout: 10_000 }).toBe(3);
    expect(await fixCount(dispatcher.page)).toBe(2);
    // Closing 4412 is not a lost connection: no reconnecting, no error.
    expect(await dispatcher.page.getByText(/Reconnect/).count()).toBe(0);

    // Dana goes back to an empty dashboard; the case goes on with Devon.
    await dispatcher.page.getByRole('button', { name: 'Close case' }).click();
    await dispatcher.page.getByRole('button', { name: 'Locate' }).waitFor();
    await move(caller);
    await expect.poll(() => fixCount(colleague.page), { timeout: 10_000 }).toBe(4);
  });

  it('keeps the case with dispatcher 1 when the colleague denies, the offer is cancelled, or it expires', async () => {
    const number = '+12025550182';
    const { dispatcher, caller } = await liveCase(number);
    const colleague = await opened(dispatcherPage(DISPATCHER_2));
    const prompt = promptOf(colleague.page);

    // Deny.
    let picker = await offerToDevon(dispatcher.page, number);
    await prompt.getByRole('button', { name: 'Deny' }).click();
    await prompt.waitFor({ state: 'detached' });
    await picker.getByText(`${DEVON} declined. The case stays with you.`).waitFor();
    await expect
      .poll(() => logText(dispatcher.page), { timeout: 10_000 })
      .toContain(`Transfer declined by ${DEVON}`);
    await move(caller);
    await expect.poll(() => fixCount(dispatcher.page), { timeout: 10_000 }).toBe(2);

    // Cancelled by dispatcher 1: Devon's prompt goes, with a short notice.
    await picker.getByRole('button', { name: `Offer the case to ${DEVON} (Available)` }).click();
    await picker.getByText(`Waiting for ${DEVON} to answer…`).waitFor();
    await prompt.waitFor();
    await picker.getByRole('button', { name: 'Cancel transfer' }).click();
    await picker.getByText(`You cancelled the transfer to ${DEVON}`).waitFor();
    await prompt.waitFor({ state: 'detached' });
    await colleague.page
      .getByTestId('case-transfer-notice')
      .getByText(`${DANA} withdrew the transfer`)
      .waitFor();

    // Nobody answers: the offer expires on both sides.
    await picker.getByRole('button', { name: 'Close' }).click();
    picker = await offerToDevon(dispatcher.page, number);
    await prompt.waitFor();
    await picker
      .getByText(`${DEVON} did not answer in time. The case stays with you.`)
      .waitFor({ timeout: OFFER_TTL_MS + 10_000 });
    await prompt.waitFor({ state: 'detached' });
    await colleague.page
      .getByTestId('case-transfer-notice')
      .getByText(/expired/)
      .waitFor();
    await expect
      .poll(() => logText(dispatcher.page), { timeout: 10_000 })
      .toContain(`Transfer to ${DEVON} expired`);

    // Still dispatcher 1's, still live.
    await move(caller);
    await expect.poll(() => fixCount(dispatcher.page), { timeout: 10_000 }).toBe(3);
    await dispatcher.page.getByRole('button', { name: 'End Tracking' }).waitFor();
  });
});
