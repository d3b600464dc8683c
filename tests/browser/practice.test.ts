import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { walkingCaller } from '../../services/api/src/modules/practice/scripts';
import { expectAccessible } from '../support/browser';
import { startAuthEnvironment, type AuthEnvironment } from './auth-support';
import { trackingHelpers } from './tracking-support';

/**
 * Issue 14, practice mode, in Chromium: from /training, a dispatcher runs the dashboard's flow
 * (locate, the lookup finds nothing, send the text) against the scripted caller the API plays;
 * the dashboard says PRACTICE throughout, the caller's positions arrive, and no text is sent.
 */
let env: AuthEnvironment;

beforeAll(async () => {
  // The script at a brisk pace: 18 steps in about 7 s.
  env = await startAuthEnvironment({ PRACTICE_PACE_MS: '400' });
});

afterAll(async () => {
  await env?.close();
});

const { outboxSms, dispatcherPage, endActiveSessions } = trackingHelpers(() => env);

afterEach(() => endActiveSessions());

const banner = (page: Page) => page.getByRole('note', { name: 'Practice mode' });
const logText = (page: Page) => page.getByRole('region', { name: 'Log' }).innerText();

describe('practice mode', { timeout: 150_000 }, () => {
  it('practice mode runs a scripted caller end to end without anything in the SMS outbox', async () => {
    const number = '+12025550171';
    const { page, context } = await dispatcherPage();

    await page.goto(`${env.api.url}/training`);
    const section = page.getByRole('region', { name: 'Practice mode' });
    await section.getByRole('heading', { name: 'Practice mode' }).waitFor();
    await section.getByRole('link', { name: 'Start practice' }).click();
    await page.waitForURL(`${env.api.url}/dashboard?practice=1`);
    await banner(page).getByText('PRACTICE — simulated caller, no real text is sent').waitFor();

    // The flow as for real: locate, the lookup has nothing, send the text.
    await page.getByLabel('Phone number').fill(number);
    await page.getByRole('button', { name: 'Locate' }).click();
    await page.getByRole('banner').getByText(`Locating ${number}`).waitFor();
    const prompt = page.getByRole('dialog', { name: 'Send SMS to the caller?' });
    await prompt.getByRole('button', { name: 'Send SMS' }).click();
    // Still marked while the modals show.
    expect(await banner(page).isVisible()).toBe(true);

    // The scripted caller refuses the permission first, then allows it and walks.
    await expect
      .poll(() => logText(page), { timeout: 15_000 })
      .toContain('Caller unable to share location');
    await page.getByTitle(`Caller ${number}`).waitFor({ timeout: 15_000 });
    await expect
      .poll(() => page.getByTestId('fix-count').innerText(), { timeout: 15_000 })
      .toBe(`${walkingCaller.route.length} fixes`);
    await page
      .getByRole('dialog', { name: /Waiting for location/i })
      .waitFor({ state: 'detached' });
    const latest = page.getByRole('region', { name: 'Latest fix' });
    await latest.getByText('TEXT_MESSAGE').first().waitFor();
    await banner(page).waitFor();
    await expectAccessible(page, 'the practice dashboard, following the scripted caller');

    // Then it stops sharing: an ordinary entry in the log.
    await expect.poll(() => logText(page), { timeout: 15_000 }).toContain('Caller Stopped Sharing');

    // A reload rejoins the session, still marked as practice.
    await page.reload();
    await page.getByRole('banner').getByText(`Locating ${number}`).waitFor();
    await banner(page).getByText('PRACTICE — simulated caller, no real text is sent').waitFor();

    // Nothing was texted to anyone.
    expect(await outboxSms(number)).toEqual([]);

    // Ending it comes back to practice mode, with the way out.
    await page.getByRole('button', { name: 'End Tracking' }).click();
    await page
      .getByRole('dialog', { name: 'Are you sure?' })
      .getByRole('button', { name: 'End Tracking' })
      .click();
    await page.getByRole('button', { name: 'Locate' }).waitFor();
    await banner(page).getByRole('link', { name: 'Leave practice mode' }).click();
    await page.waitForURL(`${env.api.url}/dashboard`);
    await expect.poll(() => banner(page).count()).toBe(0);
    expect(await outboxSms(number)).toEqual([]);
    await context.close();
  });
});
