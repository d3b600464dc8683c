import { callerTexts, type SmsLanguage } from '@locus/contract';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from '../support/browser';
import { startAuthEnvironment, type AuthEnvironment } from './auth-support';
import { trackingHelpers } from './tracking-support';

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

/** The text's words before the link, in `language`: tells which language it was sent in. */
function textOpening(language: SmsLanguage): string {
  return callerTexts[language]
    .sms({ agencyName: 'Demo County 911', link: '\u0000' })
    .split('\u0000')[0]!;
}

/** Types each number into the Tracking Numbers modal, pressing Enter after each. */
async function addNumbers(page: Page, numbers: string[]): Promise<void> {
  const dialog = page.getByRole('dialog', { name: 'Tracking Numbers' });
  const input = dialog.getByLabel('Phone number to add');
  for (const number of numbers) {
    await input.fill(number);
    await input.press('Enter');
    await dialog.getByText(number.startsWith('+') ? number : `+1${number}`).waitFor();
  }
}

describe('many numbers at once', { timeout: 120_000 }, () => {
  it('texts three typed numbers in Spanish, and shows every caller who shares on the map', async () => {
    const numbers = ['+12025550181', '+12025550182', '+12025550183'];
    const { page, context } = await dispatcherPage();
    await page.locator('label', { hasText: 'Locate Numbers' }).click();
    const dialog = page.getByRole('dialog', { name: 'Tracking Numbers' });
    await addNumbers(page, ['2025550181', '+12025550182', '+12025550183', '+12025550183']);
    // Duplicates are merged; an invalid number is flagged and not sent.
    await addNumbers(page, ['123']);
    expect(await dialog.getByText('invalid').count()).toBe(1);
    await dialog.getByRole('radio', { name: 'Spanish' }).check();
    await dialog.getByRole('button', { name: 'Send SMS' }).click();
    await page.getByRole('dialog', { name: /Waiting for location/i }).waitFor();

    const texts = await Promise.all(numbers.map((number) => waitForSms(number)));
    for (const text of texts) expect(text.body.startsWith(textOpening('es'))).toBe(true);

    const es = callerTexts.es.page;
    const callers = [];
    for (const [index, text] of texts.slice(0, 2).entries()) {
      const caller = await callerPhone({ latitude: 38.8977 + index * 0.01, longitude: -77.0365 });
      await caller.page.goto(callerLinkIn(text));
      await caller.page.getByRole('button', { name: es.shareButton }).click();
      await caller.page.getByText(es.sharingTitle).first().waitFor();
      callers.push(caller);
    }
    await page.getByTitle(`Caller ${numbers[0]}`).waitFor();
    await page.getByTitle(`Caller ${numbers[1]}`).waitFor();
    const panel = page.getByRole('region', { name: 'Numbers' });
    await expect.poll(() => panel.getByText('Sharing').count(), { timeout: 10_000 }).toBe(2);
    await expectAccessible(page, 'many numbers tracked, two sharing');

    // The side list is the map's keyboard equivalent: picking a number centres the map on it.
    const mapBox = (await page.getByRole('region', { name: 'Map' }).boundingBox())!;
    const offCentre = async (number: string) => {
      const pin = (await page.getByTitle(`Caller ${number}`).boundingBox())!;
      // The pin's tip (its bottom centre) is the fix.
      return Math.hypot(
        pin.x + pin.width / 2 - (mapBox.x + mapBox.width / 2),
        pin.y + pin.height - (mapBox.y + mapBox.height / 2),
      );
    };
    for (const number of [numbers[1]!, numbers[0]!]) {
      const pick = panel.getByRole('button', { name: `${number} show on map` });
      await pick.focus();
      await page.keyboard.press('Enter');
      await expect.poll(() => offCentre(number), { timeout: 10_000 }).toBeLessThan(4);
    }
    await page.getByRole('button', { name: 'Fit to all' }).click();

    // The log can show one number's events only.
    await page.locator('input[aria-label="Filter log"]').click();
    await page.getByRole('option', { name: numbers[1]! }).click();
    await expect
      .poll(() => page.getByRole('region', { name: 'Log' }).innerText(), { timeout: 10_000 })
      .not.toContain(numbers[0]!);

    for (const caller of callers) await caller.context.close();
    await context.close();
  });

  it('texts every number of the seeded call list in French', async () => {
    const { page, context } = await dispatcherPage();
    await page.locator('label', { hasText: 'Locate by List' }).click();
    const dialog = page.getByRole('dialog', { name: 'Tracking Lists' });
    await dialog
      .getByRole('checkbox', { name: 'Search and Rescue volunteers (3 numbers)' })
      .check();
    await dialog.getByRole('radio', { name: 'French' }).check();
    await dialog.getByRole('button', { name: 'Send SMS' }).click();
    await page.getByRole('dialog', { name: /Waiting for location/i }).waitFor();
    for (const number of ['+12025550170', '+12025550171', '+12025550172']) {
      const text = await waitForSms(number);
      expect(text.body.startsWith(textOpening('fr'))).toBe(true);
    }
    await context.close();
  });

  it('adds a number to a running session', async () => {
    const { page, context } = await dispatcherPage();
    await page.locator('label', { hasText: 'Locate Numbers' }).click();
    await addNumbers(page, ['+12025550185']);
    await page
      .getByRole('dialog', { name: 'Tracking Numbers' })
      .getByRole('button', { name: 'Send SMS' })
      .click();
    await waitForSms('+12025550185');
    // The waiting modal covers the header; stop waiting is not needed: the first fix closes it.
    const first = await callerPhone({ latitude: 38.9, longitude: -77.03 });
    await first.page.goto(callerLinkIn(await waitForSms('+12025550185')));
    await first.page.getByRole('button', { name: callerTexts.en.page.shareButton }).click();
    await page.getByTitle('Caller +12025550185').waitFor();

    await page.getByRole('button', { name: 'Add numbers' }).click();
    await addNumbers(page, ['+12025550186']);
    await page
      .getByRole('dialog', { name: 'Tracking Numbers' })
      .getByRole('button', { name: 'Send SMS' })
      .click();
    const text = await waitForSms('+12025550186');
    expect(text.body.startsWith(textOpening('en'))).toBe(true);
    await page.getByRole('region', { name: 'Numbers' }).getByText('+12025550186').waitFor();
    await first.context.close();
    await context.close();
  });
});
