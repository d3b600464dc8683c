import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, settled } from '../support/browser';
import {
  apiSignIn,
  newPage,
  signInWithForm,
  startAuthEnvironment,
  type AuthEnvironment,
} from './auth-support';

/**
 * Issue 14, training videos: the demo dispatcher opens /training from the user menu, plays the
 * self-hosted clip (seeking with Range requests) to its end, sees it marked watched, still
 * watched after a reload, undoes and redoes it from the keyboard; axe finds nothing at each step.
 */
let env: AuthEnvironment;
const channel = 'https://videos.example.com/locus-training';
const dispatcher = 'dispatcher@demo-county.test';

const url = (path: string) => `${env.api.url}${path}`;

beforeAll(async () => {
  env = await startAuthEnvironment({ TRAINING_VIDEOS_URL: channel });
});

afterAll(async () => {
  await env?.close();
});

/** The API's watched state for the dispatcher, by video id. */
async function watchedInApi(): Promise<Record<string, string | null>> {
  const { token } = await apiSignIn(env.api.url, dispatcher);
  const response = await fetch(url('/api/v1/training/videos'), {
    headers: { authorization: `Bearer ${token}` },
  });
  const body = (await response.json()) as { videos: { id: string; watchedAt: string | null }[] };
  return Object.fromEntries(body.videos.map((video) => [video.id, video.watchedAt]));
}

const player = (page: Page) => page.getByRole('region', { name: 'Locating a caller' });
const listItem = (page: Page, title: string) =>
  page.getByRole('listitem').filter({ has: page.getByRole('button', { name: title }) });
const videoState = (video: Locator) =>
  video.evaluate((element: HTMLVideoElement) => ({
    currentTime: element.currentTime,
    duration: element.duration,
    paused: element.paused,
    ended: element.ended,
  }));

describe('training videos', { timeout: 90_000 }, () => {
  it('plays the self-hosted video to its end and keeps it watched across a reload', async () => {
    const { page, context } = await newPage(env.browser);
    const mediaStatuses: number[] = [];
    page.on('response', (response) => {
      if (new URL(response.url()).pathname === '/training-media/locating-a-caller.mp4')
        mediaStatuses.push(response.status());
    });
    await signInWithForm(page, env.api.url, dispatcher);
    await page.getByRole('button', { name: /user menu/i }).click();
    await page.getByRole('menuitem', { name: 'Training Videos' }).click();
    await page.waitForURL(url('/training'));
    await page.getByRole('heading', { level: 1, name: 'Training' }).waitFor();
    await page.getByRole('heading', { level: 2, name: 'Training videos' }).waitFor();
    await page.getByText('0 of 4 watched').waitFor();

    // It opens on the first video not watched yet, with its captions on.
    await player(page).getByRole('heading', { level: 3, name: 'Locating a caller' }).waitFor();
    await expect
      .poll(() =>
        listItem(page, 'Locating a caller').getByRole('button').getAttribute('aria-current'),
      )
      .toBe('true');
    const video = player(page).locator('video');
    await expect.poll(async () => (await videoState(video)).duration).toBeCloseTo(12.5, 0);
    await expect
      .poll(() =>
        video.evaluate((element: HTMLVideoElement) => {
          const track = element.textTracks[0];
          return track ? `${track.mode} ${track.cues?.length ?? 0}` : 'none';
        }),
      )
      .toBe('showing 5');
    await player(page).getByText('Not watched yet').waitFor();
    await expectAccessible(page, '/training, first visit');

    // Play it from the keyboard: the browser's own controls take Space on the focused video.
    await video.focus();
    await page.keyboard.press('Space');
    await expect.poll(async () => (await videoState(video)).currentTime).toBeGreaterThan(0.5);
    expect((await videoState(video)).paused).toBe(false);

    // Seek close to the end (the browser asks for byte ranges) and let it finish.
    await video.evaluate((element: HTMLVideoElement) => {
      element.currentTime = element.duration - 1;
    });
    await expect.poll(async () => (await videoState(video)).ended, { timeout: 10_000 }).toBe(true);
    expect(mediaStatuses).toContain(206);

    await player(page)
      .getByText(/^Watched on /)
      .waitFor();
    await player(page).getByRole('button', { name: 'Mark as not watched' }).waitFor();
    await listItem(page, 'Locating a caller')
      .getByText(/^Watched /)
      .waitFor();
    await page.getByText('1 of 4 watched').waitFor();
    const watchedAt = (await watchedInApi())['locating-a-caller'];
    expect(watchedAt).toEqual(expect.any(String));
    await expectAccessible(page, '/training, a video watched');

    // A reload opens on the next video not watched; the first stays watched.
    await page.reload();
    await page.getByRole('heading', { level: 3, name: 'Tracking several numbers' }).waitFor();
    await listItem(page, 'Locating a caller')
      .getByText(/^Watched /)
      .waitFor();
    await page.getByText('1 of 4 watched').waitFor();

    // Choosing it from the list moves focus to the player; undo and redo from the keyboard.
    await listItem(page, 'Locating a caller').getByRole('button').focus();
    await page.keyboard.press('Enter');
    await player(page)
      .getByText(/^Watched on /)
      .waitFor();
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.textContent ?? ''))
      .toBe('Locating a caller');
    const undo = player(page).getByRole('button', { name: 'Mark as not watched' });
    await undo.focus();
    await page.keyboard.press('Enter');
    await player(page).getByText('Not watched yet').waitFor();
    await page.getByText('0 of 4 watched').waitFor();
    expect(
      await listItem(page, 'Locating a caller')
        .getByText(/^Watched /)
        .count(),
    ).toBe(0);
    expect((await watchedInApi())['locating-a-caller']).toBeNull();

    const redo = player(page).getByRole('button', { name: 'Mark as watched' });
    await redo.focus();
    await page.keyboard.press('Enter');
    await player(page)
      .getByText(/^Watched on /)
      .waitFor();
    expect((await watchedInApi())['locating-a-caller']).toEqual(expect.any(String));
    await expectAccessible(page, '/training, marked from the keyboard');

    // The deployment's channel, when it has one.
    const link = page.getByRole('link', { name: /our training channel/ });
    expect(await link.getAttribute('href')).toBe(channel);
    expect(await link.getAttribute('target')).toBe('_blank');
    await context.close();
  });

  it('fits a 320 px screen without scrolling sideways', async () => {
    const { page, context } = await newPage(env.browser, { width: 320, height: 640 });
    await signInWithForm(page, env.api.url, 'dispatcher2@demo-county.test');
    await page.goto(url('/training'));
    await page.getByRole('heading', { level: 3, name: 'Locating a caller' }).waitFor();
    await settled(page);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      320,
    );
    await expectAccessible(page, '/training at 320 px');
    await context.close();
  });
});
