import { describe, expect, it } from 'vitest';
import { tabTo } from '../support/browser';
import { en, logPanel, mediaSuite, mediaPanel, videoProgress } from './media-support';

/**
 * Issue 19 with the keyboard alone, on both sides: every step of asking, allowing, watching,
 * taking a snapshot, opening it and stopping the video is reached with Tab and done with Enter
 * or Escape, as a dispatcher who does not use a mouse (or a caller with a screen reader) does.
 */
describe('video and photos with the keyboard alone', { timeout: 300_000 }, () => {
  const { trackedCaller } = mediaSuite();

  it('request, allow, watch, snapshot, open it, close it, stop: Tab, Enter and Escape only', async () => {
    const { dispatcher, caller, close } = await trackedCaller('+12025550197');
    const panel = mediaPanel(dispatcher);

    await tabTo(dispatcher, panel.getByRole('button', { name: 'Request video' }));
    await dispatcher.keyboard.press('Enter');
    await logPanel(dispatcher).getByText('Requested video from the caller').waitFor();

    const request = caller.getByRole('region', { name: en.mediaVideoRequestTitle });
    await tabTo(caller, request.getByRole('button', { name: en.mediaAllowButton }));
    await caller.keyboard.press('Enter');
    await caller.locator('[data-camera-on]').getByText(en.cameraOnBanner).waitFor();
    await expect
      .poll(async () => (await videoProgress(dispatcher)).width, { timeout: 30_000 })
      .toBeGreaterThan(0);

    await tabTo(dispatcher, panel.getByRole('button', { name: 'Snapshot' }));
    await dispatcher.keyboard.press('Enter');
    await panel.getByText('Snapshot saved with the session.').waitFor();
    const open = panel
      .getByRole('list', { name: 'Photos' })
      .getByRole('button', { name: /^Open: Snapshot taken/ });
    await tabTo(dispatcher, open);
    await dispatcher.keyboard.press('Enter');
    const large = dispatcher.getByRole('dialog', { name: /^Snapshot taken/ });
    await large.waitFor();
    await dispatcher.keyboard.press('Escape');
    await large.waitFor({ state: 'detached' });

    await tabTo(caller, caller.getByRole('button', { name: en.cameraStopButton }));
    await caller.keyboard.press('Enter');
    await caller.getByText(en.cameraStopped).first().waitFor();
    await logPanel(dispatcher).getByText('Caller stopped the video').waitFor();
    await close();
  });
});
