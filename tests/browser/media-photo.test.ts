import { describe, expect, it } from 'vitest';
import { expectAccessible } from '../support/browser';
import { apiSignIn, newPage, signInWithForm } from './auth-support';
import { withExif } from './media-exif-fixture';
import { en, logPanel, mediaSuite, mediaPanel } from './media-support';

/**
 * Photos from the caller's phone (issue 19) in real Chromium: the dispatcher asks, the caller
 * allows and picks a camera photo carrying an EXIF position (and a file that is not a photo);
 * the page reads the position, resizes the photo and sends it; the dashboard's gallery shows it
 * with its time and position, large on a click; the page says which file was not sent and why.
 */
describe("photos from the caller's phone", { timeout: 300_000 }, () => {
  const { trackedCaller, env, browser } = mediaSuite();

  it('a photo with an EXIF position reaches the gallery with its time and position', async () => {
    const { dispatcher, caller, close } = await trackedCaller('+12025550194');
    const panel = mediaPanel(dispatcher);
    await panel.getByRole('button', { name: 'Request photo' }).click();
    const request = caller.getByRole('region', { name: en.mediaPhotoRequestTitle });
    await request.getByText(en.mediaPhotoRequestBody(10)).waitFor();
    await expectAccessible(caller, 'caller: the photo request');
    await request.getByRole('button', { name: en.mediaAllowButton }).click();
    await logPanel(dispatcher).getByText('Caller allowed photos').waitFor();
    const photos = caller.getByRole('region', { name: en.photoListLabel });
    await photos.getByRole('button', { name: en.photoPickButton }).waitFor();
    await expectAccessible(caller, 'caller: the photo picker');

    // A 3,000 × 2,000 camera picture (drawn by the browser), with the position a phone writes.
    const jpeg = await caller.evaluate(() => {
      const canvas = document.createElement('canvas');
      canvas.width = 3000;
      canvas.height = 2000;
      const context = canvas.getContext('2d')!;
      context.fillStyle = '#2f6f4f';
      context.fillRect(0, 0, 3000, 2000);
      context.fillStyle = '#f5c542';
      context.fillRect(900, 600, 1200, 800);
      return canvas.toDataURL('image/jpeg', 0.8).split(',')[1]!;
    });
    const takenAt = new Date('2026-11-29T21:14:05Z');
    const photo = withExif(new Uint8Array(Buffer.from(jpeg, 'base64')), {
      latitude: 38.889484,
      longitude: -77.035279,
      uncertainty: 8,
      gpsTime: takenAt,
      littleEndian: true,
    });
    await caller.locator('#photo-input').setInputFiles([
      { name: 'scene.jpg', mimeType: 'image/jpeg', buffer: Buffer.from(photo) },
      { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not a photo') },
    ]);

    // The page says which was sent and which was not, and why.
    const list = photos.getByRole('list', { name: en.photoListLabel });
    await list
      .getByRole('listitem')
      .filter({ hasText: 'scene.jpg' })
      .getByText(en.photoSent)
      .waitFor({ timeout: 30_000 });
    await list
      .getByRole('listitem')
      .filter({ hasText: 'notes.txt' })
      .getByText(`${en.photoNotSent}: ${en.photoNotImage}`)
      .waitFor();
    await expectAccessible(caller, 'caller: one photo sent, one refused');

    // The dashboard's gallery: time and position, and the photo large on a click.
    const gallery = panel.getByRole('list', { name: 'Photos' });
    const item = gallery.getByRole('listitem').first();
    await item.locator('[data-photo-position]').getByText('38.889484, -77.035279').waitFor();
    await logPanel(dispatcher).getByText('Caller sent a photo at 38.88948, -77.03528').waitFor();
    await item
      .getByRole('button', { name: /^Open: Photo taken .* at 38\.889484, -77\.035279$/ })
      .click();
    const large = dispatcher.getByRole('dialog', { name: /^Photo taken/ });
    // Resized on the phone to 2,048 px on its longest side.
    await expect
      .poll(() => large.locator('img').evaluate((image: HTMLImageElement) => image.naturalWidth))
      .toBe(2048);
    await expectAccessible(dispatcher, 'dashboard: the gallery, a photo opened large');

    // Another team's dispatcher, signed in in their own browser, gets 404 for this session's
    // media: the list (where the signed URLs come from) and a snapshot upload alike.
    const { token } = await apiSignIn(env().api.url, 'dispatcher@demo-county.test');
    const active = await fetch(`${env().api.url}/api/v1/location/active-session`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const sessionId = ((await active.json()) as { session: { uuid: string } }).session.uuid;
    const other = await newPage(browser());
    await signInWithForm(other.page, env().api.url, 'dispatcher@neighbour-county.test');
    const answers = await other.page.evaluate(async (id) => {
      const authorization = `Bearer ${localStorage.getItem('locus.token') ?? ''}`;
      const list = await fetch(`/api/v1/sessions/${id}/media`, { headers: { authorization } });
      const snapshot = await fetch(
        `/api/v1/sessions/${id}/media/snapshots?callerId=${crypto.randomUUID()}`,
        { method: 'POST', headers: { authorization }, body: new Uint8Array([0xff, 0xd8, 0xff]) },
      );
      return [list.status, snapshot.status];
    }, sessionId);
    expect(answers).toEqual([404, 404]);
    await other.context.close();
    await close();
  });
});
