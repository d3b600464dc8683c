import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectAccessible } from '../support/browser';
import { newPage, signInWithForm } from './auth-support';
import { en, logPanel, mediaSuite, mediaPanel, videoProgress } from './media-support';

/**
 * Live video from the caller's phone (issue 19) in real Chromium, with the fake camera: the
 * dispatcher asks, the caller allows, frames play on the dashboard (a `<video>` with a width and
 * a play position that moves), with its bitrate and frame rate; a snapshot is stored; either
 * side stops it; a decline is shown to the dispatcher. axe checks each new view.
 */
/** The dispatcher asks for video, the caller allows, and frames arrive with a width. */
async function videoPlaying(dispatcher: Page, caller: Page): Promise<void> {
  await mediaPanel(dispatcher).getByRole('button', { name: 'Request video' }).click();
  await caller.getByRole('button', { name: en.mediaAllowButton }).click();
  await expect
    .poll(async () => (await videoProgress(dispatcher)).width, { timeout: 30_000 })
    .toBeGreaterThan(0);
}

describe('live video from the caller', { timeout: 300_000 }, () => {
  const { trackedCaller, activeSessionMedia, env, browser } = mediaSuite();

  it('the dispatcher requests video, the caller allows, frames arrive, the caller stops it', async () => {
    const { dispatcher, caller, close } = await trackedCaller('+12025550191');
    const panel = mediaPanel(dispatcher);
    await expectAccessible(dispatcher, 'dashboard: the video and photos panel');
    await panel.getByRole('button', { name: 'Request video' }).click();
    await logPanel(dispatcher).getByText('Requested video from the caller').waitFor();

    // The caller's page asks, in the caller's words, with two large buttons.
    const request = caller.getByRole('region', { name: en.mediaVideoRequestTitle });
    await request.getByText(en.mediaVideoRequestBody).waitFor();
    await expectAccessible(caller, 'caller: the video request');
    await panel.getByText(/Waiting for the caller to answer the video request/).waitFor();
    await request.getByRole('button', { name: en.mediaAllowButton }).click();

    // The camera is on, and says so for as long as it is.
    await caller.locator('[data-camera-on]').getByText(en.cameraOnBanner).waitFor();
    await caller.getByRole('button', { name: en.cameraSwitchButton }).waitFor();
    await expectAccessible(caller, 'caller: camera on');
    await logPanel(dispatcher).getByText('Caller allowed video').waitFor();
    await logPanel(dispatcher).getByText("Caller's video started").waitFor();

    // Frames arrive: a picture with a width, whose play position moves.
    await expect
      .poll(async () => (await videoProgress(dispatcher)).width, { timeout: 30_000 })
      .toBeGreaterThan(0);
    const first = await videoProgress(dispatcher);
    await expect
      .poll(async () => (await videoProgress(dispatcher)).time, { timeout: 10_000 })
      .toBeGreaterThan(first.time + 0.5);
    // New frames, not a frozen picture.
    expect((await videoProgress(dispatcher)).frames).toBeGreaterThan(first.frames);
    await expect
      .poll(() => panel.locator('[data-video-stats]').innerText(), { timeout: 10_000 })
      .toMatch(/^\d+ kbps · \d+ fps · \d+×\d+$/);
    // Switch camera: the new track replaces the old on the connection; the video goes on.
    await caller.getByRole('button', { name: en.cameraSwitchButton }).click();
    const switched = await videoProgress(dispatcher);
    await expect
      .poll(async () => (await videoProgress(dispatcher)).frames, { timeout: 10_000 })
      .toBeGreaterThan(switched.frames + 10);
    await caller.locator('[data-camera-on]').waitFor();

    // Demo County records video (team setting): the dashboard records what it receives.
    await panel.getByText(/^Recording \(team setting\)/).waitFor();
    await expectAccessible(dispatcher, 'dashboard: live video');
    // At least one 5 s chunk before stopping.
    await expect
      .poll(async () => (await videoProgress(dispatcher)).time - first.time, { timeout: 15_000 })
      .toBeGreaterThan(6);

    // The caller stops it: the banner goes, the dispatcher is told and the video goes.
    await caller.getByRole('button', { name: en.cameraStopButton }).click();
    await caller.getByText(en.cameraStopped).first().waitFor();
    expect(await caller.locator('[data-camera-on]').count()).toBe(0);
    await logPanel(dispatcher).getByText('Caller stopped the video').waitFor();
    await dispatcher.locator('video[data-caller-video]').waitFor({ state: 'detached' });
    await panel.getByRole('button', { name: 'Request video' }).waitFor();
    expect(await panel.getByRole('button', { name: 'Request video' }).isEnabled()).toBe(true);

    // The recording is finished and kept with the session: WebM, its length and hash.
    await expect
      .poll(async () => (await activeSessionMedia()).recordings, { timeout: 20_000 })
      .toEqual([
        expect.objectContaining({
          contentType: expect.stringMatching(/^video\/webm/),
          bytes: expect.any(Number),
          endedAt: expect.any(String),
          sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
        }),
      ]);
    const [recording] = (await activeSessionMedia()).recordings;
    expect(recording!.bytes).toBeGreaterThan(10_000);
    await close();
  });

  it('a caller whose page reloads mid-video: the dashboard says the video was lost, and may ask again', async () => {
    const { dispatcher, caller, close } = await trackedCaller('+12025550188');
    const panel = mediaPanel(dispatcher);
    await videoPlaying(dispatcher, caller);

    // A duplicated tab starts with a copy of the page's session storage, its camera record
    // included. It asks the other tabs, finds the camera open in the original, and drops the
    // record instead of reporting that video as gone with a reload.
    const storage = await caller.evaluate(() => JSON.stringify(Object.entries(sessionStorage)));
    expect(storage).toContain('locus.video.');
    const copy = await caller.context().newPage();
    await copy.addInitScript((entries: string) => {
      if (sessionStorage.length > 0) return;
      for (const [key, value] of JSON.parse(entries) as [string, string][])
        sessionStorage.setItem(key, value);
    }, storage);
    await copy.goto(caller.url());
    await copy.getByText(en.sharingTitle).first().waitFor();
    await expect
      .poll(() =>
        copy.evaluate(() =>
          Object.keys(sessionStorage).some((key) => key.startsWith('locus.video.')),
        ),
      )
      .toBe(false);
    await copy.close();
    const before = await videoProgress(dispatcher);
    await expect
      .poll(async () => (await videoProgress(dispatcher)).frames)
      .toBeGreaterThan(before.frames);
    expect(
      await logPanel(dispatcher)
        .getByText(/Video stopped/)
        .count(),
    ).toBe(0);
    // Nor did the copy closing tell the dispatcher that the caller's page is gone.
    expect(await panel.getByRole('button', { name: 'Request photo' }).isEnabled()).toBe(true);

    // A reload ends the page's camera: the dispatcher is not left watching a frozen picture.
    await caller.reload();
    await logPanel(dispatcher)
      .getByText("Video stopped: the caller's page was reloaded")
      .waitFor({ timeout: 20_000 });
    await dispatcher.locator('video[data-caller-video]').waitFor({ state: 'detached' });
    expect(await caller.locator('[data-camera-on]').count()).toBe(0);

    // Asked again, the reloaded page shows the request, and the video comes back.
    await videoPlaying(dispatcher, caller);
    const restarted = await videoProgress(dispatcher);
    await expect
      .poll(async () => (await videoProgress(dispatcher)).frames, { timeout: 10_000 })
      .toBeGreaterThan(restarted.frames);

    // The phone's browser closes without a word: the dashboard's connection fails, and says so
    // rather than keep a frozen picture.
    await caller.close();
    await panel
      .getByRole('alert')
      .filter({ hasText: 'The video connection was lost' })
      .waitFor({ timeout: 60_000 });
    await dispatcher.locator('video[data-caller-video]').evaluate((video: HTMLVideoElement) => {
      if (video.srcObject !== null) throw new Error('the video still shows the old stream');
    });
    await expectAccessible(dispatcher, 'dashboard: the video connection lost');
    await close();
  });

  it('the dispatcher takes a snapshot, which the gallery shows, and stops the video', async () => {
    const { dispatcher, caller, close } = await trackedCaller('+12025550192');
    const panel = mediaPanel(dispatcher);
    await videoPlaying(dispatcher, caller);

    await panel.getByRole('button', { name: 'Snapshot' }).click();
    await panel.getByText('Snapshot saved with the session.').waitFor();
    await logPanel(dispatcher).getByText('Snapshot of the video saved').waitFor();
    const gallery = panel.getByRole('list', { name: 'Photos' });
    await gallery.getByText(/^Snapshot · /).waitFor();
    await gallery.getByRole('button', { name: /^Open: Snapshot taken/ }).click();
    const large = dispatcher.getByRole('dialog', { name: /^Snapshot taken/ });
    await expect
      .poll(() => large.locator('img').evaluate((image: HTMLImageElement) => image.naturalWidth))
      .toBeGreaterThan(0);
    await expectAccessible(dispatcher, 'dashboard: a snapshot opened large');
    await dispatcher.keyboard.press('Escape');
    await large.waitFor({ state: 'detached' });

    // Stop video from the dashboard turns the caller's camera off.
    await panel.getByRole('button', { name: 'Stop video' }).click();
    await logPanel(dispatcher).getByText('Video stopped by the dispatcher').waitFor();
    await caller.locator('[data-camera-on]').waitFor({ state: 'detached' });
    await caller.getByText(en.cameraStopped).first().waitFor();
    await close();
  });

  it('a second dashboard of the session watches too (one connection each), and leaves', async () => {
    const { dispatcher, caller, close } = await trackedCaller('+12025550196');
    await videoPlaying(dispatcher, caller);

    // The same dispatcher in a second window: it rejoins the active session, whose replay says
    // the video runs, and watches it as a second viewer.
    const second = await newPage(browser());
    await signInWithForm(second.page, env().api.url, 'dispatcher@demo-county.test');
    await expect
      .poll(async () => (await videoProgress(second.page)).width, { timeout: 30_000 })
      .toBeGreaterThan(0);
    const both = await Promise.all([videoProgress(dispatcher), videoProgress(second.page)]);
    await expect
      .poll(async () => (await videoProgress(second.page)).frames, { timeout: 10_000 })
      .toBeGreaterThan(both[1].frames + 10);
    expect((await videoProgress(dispatcher)).frames).toBeGreaterThan(both[0].frames);

    // The second window closes: its viewer leaves; the first keeps its picture.
    await second.context.close();
    const after = await videoProgress(dispatcher);
    await expect
      .poll(async () => (await videoProgress(dispatcher)).frames, { timeout: 10_000 })
      .toBeGreaterThan(after.frames + 10);
    await caller.locator('[data-camera-on]').waitFor();
    await close();
  });

  it('a video that cannot be sustained falls back to stills, shown on the dashboard', async () => {
    const { dispatcher, caller, close } = await trackedCaller('+12025550195', {
      // A network that carries one frame a second: every encoding the page sets is capped at
      // 1 fps in the browser itself (the page's own adaptation then decides, as on a phone).
      initScript: () => {
        const setParameters = RTCRtpSender.prototype.setParameters;
        RTCRtpSender.prototype.setParameters = function (parameters, ...rest) {
          for (const encoding of parameters.encodings) encoding.maxFramerate = 1;
          return setParameters.call(this, parameters, ...rest);
        };
      },
    });
    const panel = mediaPanel(dispatcher);
    await videoPlaying(dispatcher, caller);

    // Under 3 fps for 8 s: the page says so to the caller and sends a still every 3 s.
    await caller.getByText(en.cameraStills).first().waitFor({ timeout: 30_000 });
    await caller.locator('[data-camera-on]').waitFor();
    await logPanel(dispatcher)
      .getByText("Caller's video is too slow: showing still pictures instead")
      .waitFor();
    const still = panel.getByRole('img', { name: /^Still from the caller's camera/ });
    await still.waitFor({ timeout: 15_000 });
    await expect
      .poll(() => still.evaluate((image: HTMLImageElement) => image.naturalWidth))
      .toBeGreaterThan(0);
    await expectAccessible(dispatcher, 'dashboard: stills');
    await expectAccessible(caller, 'caller: stills');
    await close();
  });

  it('a caller who allows but whose phone will not open the camera: the dispatcher is told which', async () => {
    // The browser refuses the camera, as one blocked in its settings does.
    const { dispatcher, caller, close } = await trackedCaller('+12025550189', {
      initScript: () => {
        navigator.mediaDevices.getUserMedia = () =>
          Promise.reject(new DOMException('Permission denied', 'NotAllowedError'));
      },
    });
    const panel = mediaPanel(dispatcher);
    await panel.getByRole('button', { name: 'Request video' }).click();
    await caller.getByRole('button', { name: en.mediaAllowButton }).click();
    await caller.getByText(en.cameraBlocked).first().waitFor();
    expect(await caller.locator('[data-camera-on]').count()).toBe(0);

    // Not "declined": the caller said yes; the dispatcher asks for photos instead.
    await logPanel(dispatcher)
      .getByText('Caller allowed video, but their phone did not open the camera')
      .waitFor();
    expect(await logPanel(dispatcher).getByText('Caller declined video').count()).toBe(0);
    await expect
      .poll(() => panel.getByRole('button', { name: 'Request photo' }).isEnabled())
      .toBe(true);
    await close();
  });

  it('a caller who says Not now: the dispatcher is told, and may ask again', async () => {
    const { dispatcher, caller, close } = await trackedCaller('+12025550193');
    const panel = mediaPanel(dispatcher);
    await panel.getByRole('checkbox', { name: 'With sound' }).check();
    await panel.getByRole('button', { name: 'Request video' }).click();
    const request = caller.getByRole('region', { name: en.mediaVideoRequestTitle });
    await request.getByText(en.mediaVideoAudioNote).waitFor();
    await request.getByRole('button', { name: en.mediaDeclineButton }).click();
    await caller.getByText(en.mediaDeclined).first().waitFor();
    expect(await caller.locator('[data-camera-on]').count()).toBe(0);
    await expectAccessible(caller, 'caller: after Not now');

    await logPanel(dispatcher).getByText('Requested video with sound from the caller').waitFor();
    await logPanel(dispatcher).getByText('Caller declined video').waitFor();
    // Never asked again by itself: the buttons are back for the dispatcher to decide.
    await expect
      .poll(() => panel.getByRole('button', { name: 'Request video' }).isEnabled())
      .toBe(true);
    expect(await caller.getByRole('region', { name: en.mediaVideoRequestTitle }).count()).toBe(0);
    await expectAccessible(dispatcher, 'dashboard: a declined request');
    await close();
  });
});
