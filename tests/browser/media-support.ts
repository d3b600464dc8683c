import { callerTexts, type SessionMedia } from '@locus/contract';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser } from '../support/browser';
import { afterAll, afterEach, beforeAll } from 'vitest';
import {
  apiSignIn,
  newPage,
  signInWithForm,
  startAuthEnvironment,
  type AuthEnvironment,
} from './auth-support';
import { trackingHelpers } from './tracking-support';

/**
 * Issue 19's browser tests: Debian's Chromium with a fake camera and microphone
 * (`--use-fake-device-for-media-stream`: a moving test pattern and a beep) and the permission
 * prompt answered Allow (`--use-fake-ui-for-media-stream`). Host candidates are not hidden
 * behind mDNS names, which this sandbox cannot resolve: the two pages connect over loopback,
 * with no TURN server needed.
 */
export function launchMediaBrowser(): Promise<Browser> {
  return launchBrowser([
    '--use-fake-device-for-media-stream',
    '--use-fake-ui-for-media-stream',
    '--disable-features=WebRtcHideLocalIpsWithMdns',
    // A dashboard in a background context must still play what arrives.
    '--autoplay-policy=no-user-gesture-required',
  ]);
}

export const en = callerTexts.en.page;

/**
 * A media browser test file's set-up, for use inside its `describe`: the environment and the
 * media browser for the file, the sessions a test left active ended after it, and the helpers.
 */
export function mediaSuite() {
  let env: AuthEnvironment;
  let browser: Browser;
  beforeAll(async () => {
    env = await startAuthEnvironment();
    browser = await launchMediaBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await env?.close();
  });
  const { endActiveSessions } = trackingHelpers(() => env);
  afterEach(() => endActiveSessions());
  return {
    env: () => env,
    browser: () => browser,
    ...mediaHelpers(
      () => env,
      () => browser,
    ),
  };
}

/**
 * A dispatcher on the dashboard and a caller sharing on their page (English), both in the media
 * browser: the dashboard's "Video and photos" panel and the caller's page, ready for a request.
 */
export function mediaHelpers(environment: () => AuthEnvironment, browser: () => Browser) {
  const { waitForSms, callerLinkIn } = trackingHelpers(environment);
  const base = () => environment().api.url;

  async function trackedCaller(
    number: string,
    options: { initScript?: () => void } = {},
  ): Promise<{
    dispatcher: Page;
    caller: Page;
    close(): Promise<void>;
  }> {
    const dispatcher = await newPage(browser());
    await signInWithForm(dispatcher.page, base(), 'dispatcher@demo-county.test');
    const page = dispatcher.page;
    await page.getByLabel('Phone number').fill(number);
    await page.getByRole('button', { name: 'Locate' }).click();
    const prompt = page.getByRole('dialog', { name: 'Send SMS to the caller?' });
    await prompt.getByRole('button', { name: 'Send SMS' }).click();
    await page.getByRole('dialog', { name: /Waiting for location/i }).waitFor();

    const link = callerLinkIn(await waitForSms(number));
    const phone: BrowserContext = await browser().newContext({
      viewport: { width: 360, height: 740 },
      isMobile: true,
      hasTouch: true,
      permissions: ['geolocation', 'camera', 'microphone'],
      geolocation: { latitude: 38.8977, longitude: -77.0365, accuracy: 15 },
    });
    phone.setDefaultTimeout(10_000);
    if (options.initScript) await phone.addInitScript(options.initScript);
    const caller = await phone.newPage();
    await caller.goto(link);
    await caller.getByRole('button', { name: en.shareButton }).click();
    await caller.getByText(en.sharingTitle).first().waitFor();
    await page
      .getByRole('dialog', { name: /Waiting for location/i })
      .waitFor({ state: 'detached' });
    return {
      dispatcher: page,
      caller,
      close: async () => {
        await phone.close();
        await dispatcher.context.close();
      },
    };
  }

  /** The dispatcher's active session's media, as the API lists it to that dispatcher. */
  async function activeSessionMedia(): Promise<SessionMedia> {
    const { token } = await apiSignIn(base(), 'dispatcher@demo-county.test');
    const headers = { authorization: `Bearer ${token}` };
    const active = await fetch(`${base()}/api/v1/location/active-session`, { headers });
    const { session } = (await active.json()) as { session: { uuid: string } | null };
    if (!session) throw new Error('no active session');
    const media = await fetch(`${base()}/api/v1/sessions/${session.uuid}/media`, { headers });
    if (media.status !== 200) throw new Error(`the media list answered ${media.status}`);
    return (await media.json()) as SessionMedia;
  }

  return { trackedCaller, activeSessionMedia };
}

export const mediaPanel = (page: Page) => page.getByRole('region', { name: 'Video and photos' });
export const logPanel = (page: Page) => page.getByRole('region', { name: 'Log' });

/** The dashboard's `<video>`: its size, play position and frames decoded, read in the page. */
export function videoProgress(
  page: Page,
): Promise<{ width: number; time: number; frames: number }> {
  return page.locator('video[data-caller-video]').evaluate((video: HTMLVideoElement) => ({
    width: video.videoWidth,
    time: video.currentTime,
    frames: video.getVideoPlaybackQuality().totalVideoFrames,
  }));
}
