import { callerTexts, formatLocationText } from '@locus/contract';
import { expectAccessible } from '../support/browser';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startAuthEnvironment, type AuthEnvironment } from './auth-support';
import { trackingHelpers } from './tracking-support';

// Issue 23 on the dispatcher's screen: "Ask for location by text" texts the caller, and a
// position the caller texts back lands on the map marked as texted, with its own log line.

let env: AuthEnvironment;

beforeAll(async () => {
  env = await startAuthEnvironment();
});

afterAll(async () => {
  await env?.close();
});

const { textedSession, textBackOf, outboxSms, dispatcherPage, endActiveSessions } = trackingHelpers(
  () => env,
);

afterEach(() => endActiveSessions());

/** The caller's phone texting Locus (the dev outbox hands it to the inbound handler). */
async function phoneTexts(from: string, body: string): Promise<void> {
  const response = await fetch(`${env.api.url}/api/v1/dev/outbox/sms/inbound`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ from, body }),
  });
  expect(response.status).toBe(200);
}

describe('a location the caller texts back, on the dashboard', () => {
  it('the dispatcher asks by text; the texted position is on the map, marked as texted', async () => {
    const number = '+12025550191';
    const session = await textedSession(number, 'fr');
    const textBack = await textBackOf(session.link);

    const dashboard = await dispatcherPage();
    const { page } = dashboard;
    await page.getByRole('banner').getByText(`Locating ${number}`).waitFor();

    // The page cannot get through: the dispatcher asks the caller to text their position.
    // By keyboard alone: Tab to the button, then Enter.
    const ask = page.getByRole('button', { name: 'Ask for location by text' });
    await ask.waitFor();
    for (
      let tab = 0;
      tab < 40 && !(await ask.evaluate((el) => el === document.activeElement));
      tab += 1
    )
      await page.keyboard.press('Tab');
    expect(await ask.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press('Enter');
    await page.getByText(`Asked ${number} to text their location`).waitFor();
    const log = page.getByRole('region', { name: 'Log' });
    await log.getByText('Asked the caller for their location by text').waitFor();
    const [asked] = await outboxSms(number);
    expect(asked!.body).toBe(callerTexts.fr.smsAskLocation);

    // The caller presses Send on the text their page prefilled.
    const capturedAt = Math.floor((Date.now() - 20_000) / 1000) * 1000;
    await phoneTexts(
      number,
      formatLocationText(
        { latitude: 48.85661, longitude: 2.35222, accuracy: 9, capturedAt },
        textBack.code,
      ),
    );
    await log.getByText('Location received by text').waitFor();
    const latest = page.getByRole('region', { name: 'Latest fix' });
    await latest.getByText('48.856610', { exact: true }).waitFor();
    await latest.getByTestId('texted-fix').waitFor();
    expect(await latest.getByTestId('texted-fix').innerText()).toContain('By text message');
    expect(await latest.getByText(/by SMS reply/).count()).toBe(1);
    // On the map (a canvas): the texted fix is ringed, and says so when pointed at. The pin's
    // tip is the fix; just below it, the ring shows past the pin.
    const pin = await page.locator('.locus-caller-marker').first().boundingBox();
    await page.mouse.move(pin!.x + pin!.width / 2, pin!.y + pin!.height + 4);
    await page.getByText(/^Location received by text · /).waitFor();

    // A text that names no position the dispatcher can use says why, in the log.
    await phoneTexts(number, 'https://maps.app.goo.gl/AbCdEf123');
    await log.getByText(/location not mapped/i).waitFor();

    await expectAccessible(page, 'a fix that arrived by text, and the log saying why one did not');
    await session.dispatcher.close();
    await dashboard.context.close();
  });
});
