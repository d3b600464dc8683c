import { callerTexts } from '@locus/contract';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from '../support/browser';
import { apiSignIn, startAuthEnvironment, type AuthEnvironment } from './auth-support';
import { trackingHelpers } from './tracking-support';

let env: AuthEnvironment;

beforeAll(async () => {
  env = await startAuthEnvironment();
});

afterAll(async () => {
  await env?.close();
});

const { outboxSms, waitForSms, callerLinkIn, dispatcherPage, callerPhone, endActiveSessions } =
  trackingHelpers(() => env);

afterEach(() => endActiveSessions());

async function locate(page: Page, number: string): Promise<void> {
  await page.getByLabel('Phone number').fill(number);
  await page.getByRole('button', { name: 'Locate' }).click();
  await page.getByRole('banner').getByText(`Locating ${number}`).waitFor();
}

/** Ends the dispatcher's session through the UI (from the waiting modal while it shows). */
async function endTracking(page: Page): Promise<void> {
  const waiting = page.getByRole('dialog', { name: 'Waiting for location…' });
  if (await waiting.isVisible())
    await waiting.getByRole('button', { name: 'Stop tracking' }).click();
  else await page.getByRole('button', { name: 'End Tracking' }).click();
  await page
    .getByRole('dialog', { name: 'Are you sure?' })
    .getByRole('button', { name: 'End Tracking' })
    .click();
  await page.getByRole('button', { name: 'Locate' }).waitFor();
}

/** The dispatcher's log, as text. */
const logText = (page: Page) => page.getByRole('region', { name: 'Log' }).innerText();

/** The status line's session state (the dashboard's reading of its tracking machine). */
const dashboardLifecycle = (page: Page) =>
  page.getByText(/^Status:/).getAttribute('data-lifecycle');

/** The server's session-lifecycle state of the running session for `number`. */
async function serverLifecycle(number: string): Promise<string | undefined> {
  const row = await env.database.db
    .selectFrom('tracking_sessions')
    .innerJoin('session_callers', 'session_callers.session_id', 'tracking_sessions.id')
    .select('tracking_sessions.lifecycle')
    .where('session_callers.phone_number', '=', number)
    .where('tracking_sessions.status', '=', 'active')
    .executeTakeFirst();
  return row?.lifecycle;
}

/** The dashboard and the server name the session's state alike, at every step asserted. */
async function expectLifecycle(page: Page, number: string, state: string): Promise<void> {
  await expect.poll(() => dashboardLifecycle(page), { timeout: 10_000 }).toBe(state);
  await expect.poll(() => serverLifecycle(number), { timeout: 10_000 }).toBe(state);
}

describe('tracking a caller', { timeout: 90_000 }, () => {
  it('locates a number the provider knows, on the map, without texting anyone', async () => {
    const { page, context } = await dispatcherPage();
    await locate(page, '+12025550107');
    await page.getByTitle('Caller +12025550107').waitFor();
    const latest = page.getByRole('region', { name: 'Latest fix' });
    await latest.getByText('RAPID_SOS').first().waitFor();
    expect(await latest.innerText()).toMatch(/-?\d+\.\d{6}, -?\d+\.\d{6}/);
    await expectAccessible(page, 'tracking a fix from the provider');
    // No text was sent, so nothing waits for one.
    await expect
      .poll(() => page.getByRole('dialog').allInnerTexts(), { timeout: 10_000 })
      .toEqual([]);
    expect(await outboxSms('+12025550107')).toEqual([]);

    await page.getByRole('button', { name: 'End Tracking' }).click();
    const confirm = page.getByRole('dialog', { name: 'Are you sure?' });
    await confirm.getByRole('button', { name: 'End Tracking' }).click();
    await page.getByRole('button', { name: 'Locate' }).waitFor();
    expect(await page.getByTitle('Caller +12025550107').count()).toBe(0);
    await context.close();
  });

  it('texts the link in Spanish, and follows the moving caller until tracking ends', async () => {
    const number = '+12025550163';
    const dispatcher = await dispatcherPage();
    await locate(dispatcher.page, number);
    const prompt = dispatcher.page.getByRole('dialog', { name: 'Send SMS to the caller?' });
    await prompt.getByRole('radio', { name: 'Spanish' }).check();
    await prompt.getByRole('button', { name: 'Send SMS' }).click();
    await dispatcher.page.getByRole('dialog', { name: /Waiting for location/i }).waitFor();
    await expectLifecycle(dispatcher.page, number, 'waiting');

    const text = await waitForSms(number);
    expect(text.body).toContain('Demo County 911');
    const es = callerTexts.es.page;
    const caller = await callerPhone({ grant: true });
    await caller.page.goto(callerLinkIn(text));
    await caller.page.getByText(es.requestFrom('Demo County 911')).waitFor();
    await caller.page.getByRole('button', { name: es.shareButton }).click();
    await caller.page.getByText(es.sharingTitle).first().waitFor();

    // The first fix closes the waiting modal and puts the caller on the map.
    await dispatcher.page
      .getByRole('dialog', { name: /Waiting for location/i })
      .waitFor({ state: 'detached' });
    await dispatcher.page.getByTitle(`Caller ${number}`).waitFor();
    await expectLifecycle(dispatcher.page, number, 'sharing');
    for (let step = 1; step <= 3; step += 1) {
      await caller.context.setGeolocation({
        latitude: 38.8977 + step * 0.0005,
        longitude: -77.0365 + step * 0.0005,
        accuracy: 10,
      });
      await expect
        .poll(() => dispatcher.page.getByTestId('fix-count').innerText(), { timeout: 10_000 })
        .toBe(`${step + 1} fixes`);
    }
    const latest = dispatcher.page.getByRole('region', { name: 'Latest fix' });
    await latest.getByText('38.899200').first().waitFor();
    await latest.getByText('TEXT_MESSAGE').first().waitFor();

    // Stop sharing is logged for the dispatcher.
    await caller.page.getByRole('button', { name: es.stopButton }).click();
    await caller.page.getByText(es.stoppedTitle).waitFor();
    await expect
      .poll(() => logText(dispatcher.page), { timeout: 10_000 })
      .toContain('Caller Stopped Sharing');

    // End tracking: the caller's page says so, and the link no longer works.
    await caller.page.getByRole('button', { name: es.shareAgainButton }).click();
    await caller.page.getByText(es.sharingTitle).first().waitFor();
    await dispatcher.page.getByRole('button', { name: 'End Tracking' }).click();
    await dispatcher.page
      .getByRole('dialog', { name: 'Are you sure?' })
      .getByRole('button', { name: 'End Tracking' })
      .click();
    await caller.page.getByText(es.endedTitle).waitFor();
    await dispatcher.page.getByRole('button', { name: 'Locate' }).waitFor();
    await caller.page.reload();
    await caller.page.getByText(es.endedTitle).waitFor();
    expect(await caller.page.getByRole('button', { name: es.shareButton }).count()).toBe(0);
    await caller.context.close();
    await dispatcher.context.close();
  });

  it('tells the dispatcher when the caller denies location, and tells the caller how to allow it', async () => {
    const number = '+12025550164';
    const dispatcher = await dispatcherPage();
    await locate(dispatcher.page, number);
    await dispatcher.page.getByRole('button', { name: 'Send SMS' }).click();
    const caller = await callerPhone({ grant: false });
    await caller.page.goto(callerLinkIn(await waitForSms(number)));
    const en = callerTexts.en.page;
    await caller.page.getByRole('button', { name: en.shareButton }).click();
    await caller.page.getByText(en.deniedTitle).waitFor();
    await caller.page.getByRole('button', { name: en.tryAgainButton }).waitFor();
    await expect
      .poll(() => logText(dispatcher.page), { timeout: 10_000 })
      .toContain('Caller unable to share location');
    // The waiting modal says why nothing is coming, instead of spinning on.
    await dispatcher.page
      .getByRole('dialog', { name: 'Waiting for location…' })
      .getByRole('alert')
      .getByText(/did not share its location/)
      .waitFor();
    await expectAccessible(dispatcher.page, 'waiting, after the caller refused');
    await endTracking(dispatcher.page);
    await caller.context.close();
    await dispatcher.context.close();
  });

  it('resumes the session with its history after the dispatcher reloads', async () => {
    const number = '+12025550165';
    const dispatcher = await dispatcherPage();
    await locate(dispatcher.page, number);
    await dispatcher.page.getByRole('button', { name: 'Send SMS' }).click();
    const caller = await callerPhone({ grant: true });
    await caller.page.goto(callerLinkIn(await waitForSms(number)));
    await caller.page.getByRole('button', { name: callerTexts.en.page.shareButton }).click();
    await dispatcher.page.getByTitle(`Caller ${number}`).waitFor();
    await dispatcher.page.reload();
    await dispatcher.page.getByRole('banner').getByText(`Locating ${number}`).waitFor();
    await dispatcher.page.getByTitle(`Caller ${number}`).waitFor();
    await expectAccessible(dispatcher.page, 'a session resumed after a reload');
    await endTracking(dispatcher.page);
    await caller.context.close();
    await dispatcher.context.close();
  });

  it('never shows a session to a dispatcher of another team', async () => {
    const number = '+12025550166';
    const dispatcher = await dispatcherPage();
    await locate(dispatcher.page, number);
    await dispatcher.page.getByRole('button', { name: 'Send SMS' }).click();
    const sessionId = await dispatcher.page.evaluate(async () => {
      const token = localStorage.getItem('locus.token');
      const response = await fetch('/api/v1/location/active-session', {
        headers: { authorization: `Bearer ${token}` },
      });
      return ((await response.json()) as { session: { uuid: string } }).session.uuid;
    });

    const other = await dispatcherPage('dispatcher@neighbour-county.test');
    await other.page.getByRole('button', { name: 'Locate' }).waitFor();
    expect(await other.page.getByText(`Locating ${number}`).count()).toBe(0);
    const { token } = await apiSignIn(env.api.url, 'dispatcher@neighbour-county.test');
    const answer = await other.page.evaluate(
      async ({ id, bearer }) => {
        const response = await fetch(`/api/v1/location/get-latest-location/${id}`, {
          headers: { authorization: `Bearer ${bearer}` },
        });
        return { status: response.status, body: (await response.json()) as unknown };
      },
      { id: sessionId, bearer: token },
    );
    expect(answer).toEqual({
      status: 404,
      body: { error: 'not-found', message: 'There is no such tracking session.' },
    });
    await other.context.close();
    await endTracking(dispatcher.page);
    await dispatcher.context.close();
  });
});
