import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from '../support/browser';
import {
  newPage,
  signInWithForm,
  startAuthEnvironment,
  type AuthEnvironment,
} from './auth-support';

// Issue 14, "Maps on a closed network": when no tile loads, the dashboard map draws the
// outlines shipped with the app (world-atlas, us-atlas) and says it is the offline map.

/** Nothing listens on the discard port: every tile is refused at once. */
const UNREACHABLE_TILES = 'http://127.0.0.1:9/{z}/{x}/{y}.png';
const DISPATCHER = 'dispatcher@demo-county.test';

async function openDashboard(env: AuthEnvironment): Promise<{ page: Page; map: Locator }> {
  const { page } = await newPage(env.browser);
  await signInWithForm(page, env.api.url, DISPATCHER);
  const map = page.getByRole('region', { name: 'Map' });
  await map.waitFor();
  return { page, map };
}

interface Pixels {
  total: number;
  /** Pixels of the offline map's land colour. */
  land: number;
  /** Pixels that are neither land nor sea: the outlines drawn on the land. */
  outlines: number;
}

/**
 * What a user sees in the middle of the map (it opens on the contiguous US, centred in Kansas):
 * a screenshot of that area, decoded by the page itself, counted by colour.
 */
async function centrePixels(page: Page, map: Locator): Promise<Pixels> {
  const box = (await map.boundingBox())!;
  const clip = {
    x: box.x + box.width / 2 - 120,
    y: box.y + box.height / 2 - 40,
    width: 240,
    height: 80,
  };
  const png = (await page.screenshot({ clip })).toString('base64');
  return page.evaluate(async (data) => {
    const image = new Image();
    image.src = `data:image/png;base64,${data}`;
    await image.decode();
    const canvas = document.createElement('canvas');
    canvas.width = image.width;
    canvas.height = image.height;
    const context = canvas.getContext('2d')!;
    context.drawImage(image, 0, 0);
    const { data: rgba } = context.getImageData(0, 0, canvas.width, canvas.height);
    const near = (i: number, hex: number) =>
      Math.abs(rgba[i]! - (hex >> 16)) +
        Math.abs(rgba[i + 1]! - ((hex >> 8) & 0xff)) +
        Math.abs(rgba[i + 2]! - (hex & 0xff)) <
      12;
    const pixels = { total: 0, land: 0, outlines: 0 };
    for (let i = 0; i < rgba.length; i += 4) {
      pixels.total += 1;
      if (near(i, 0xf2efe9)) pixels.land += 1;
      else if (!near(i, 0xaad3df)) pixels.outlines += 1;
    }
    return pixels;
  }, png);
}

/** The layers the offline map has drawn, as it lists them on the map's element. */
const drawnLayers = async (map: Locator) =>
  ((await map.getAttribute('data-fallback-basemap')) ?? '').split(' ');

describe('the dashboard map with no reachable tile server', { timeout: 90_000 }, () => {
  let env: AuthEnvironment;

  beforeAll(async () => {
    env = await startAuthEnvironment({ MAP_TILE_URL: UNREACHABLE_TILES });
  });

  afterAll(async () => {
    await env?.close();
  });

  it('says it is the offline map and draws the US states from the app itself', async () => {
    const { page, map } = await openDashboard(env);
    const note = map.getByRole('status').filter({ hasText: 'Offline map' });
    await note.waitFor();
    expect(await note.isVisible()).toBe(true);

    // States are drawn at the dashboard's opening zoom; counties wait for a closer one.
    await page.waitForFunction(() =>
      /\bstates\b/.test(
        document.querySelector<HTMLElement>('.leaflet-container')!.dataset.fallbackBasemap ?? '',
      ),
    );
    expect(await drawnLayers(map)).toEqual(['land', 'countries', 'states']);

    // What the dispatcher sees over Kansas and its neighbours: land, crossed by state lines.
    const pixels = await centrePixels(page, map);
    expect(pixels.land / pixels.total).toBeGreaterThan(0.5);
    expect(pixels.outlines).toBeGreaterThan(100);

    await expectAccessible(page, 'dashboard on the offline map');
    await page.context().close();
  });

  it('adds county lines when zoomed in', async () => {
    const { page, map } = await openDashboard(env);
    await map.getByRole('status').filter({ hasText: 'Offline map' }).waitFor();
    await page.waitForFunction(
      () => document.querySelector<HTMLElement>('.leaflet-container')?.dataset.fallbackBasemap,
    );
    // Three zooms in (a click during Leaflet's zoom animation may be dropped: click again).
    const zoomIn = page.getByRole('button', { name: 'Zoom in' });
    for (let click = 0; click < 6 && !(await drawnLayers(map)).includes('counties'); click++) {
      await zoomIn.click();
      await page.waitForTimeout(100);
      await page.waitForFunction(
        () => !document.querySelector('.leaflet-map-pane')!.classList.contains('leaflet-zoom-anim'),
      );
      // The counties file is fetched the first time they are wanted.
      await page.waitForTimeout(300);
    }
    await page.waitForFunction(() =>
      /\bcounties\b/.test(
        document.querySelector<HTMLElement>('.leaflet-container')!.dataset.fallbackBasemap ?? '',
      ),
    );
    expect(await drawnLayers(map)).toEqual(['land', 'countries', 'states', 'counties']);
    // At zoom 7 the middle of the map is inside Kansas, far from any state line: what is drawn
    // there is county lines.
    const after = await centrePixels(page, map);
    expect(after.land / after.total).toBeGreaterThan(0.5);
    expect(after.outlines).toBeGreaterThan(100);
    await page.context().close();
  });
});

describe('the dashboard map with tiles that load', { timeout: 90_000 }, () => {
  let env: AuthEnvironment;

  beforeAll(async () => {
    // startAuthEnvironment's own tiles: the blank tile this server serves.
    env = await startAuthEnvironment();
  });

  afterAll(async () => {
    await env?.close();
  });

  it('shows the tiles and no offline note', async () => {
    const { page, map } = await openDashboard(env);
    await map.locator('img.leaflet-tile-loaded').first().waitFor();
    // Long enough for three refused tiles to have turned it offline, had they been refused.
    await page.waitForTimeout(1_500);
    expect(await map.getByText('Offline map').count()).toBe(0);
    expect(await map.getAttribute('data-fallback-basemap')).toBeNull();
    // The live region is there all along, empty, so the change would be announced.
    expect(await map.getByRole('status').count()).toBe(1);
    await page.context().close();
  });
});

describe(
  'the dashboard map with a PMTiles archive that cannot be read',
  { timeout: 90_000 },
  () => {
    let env: AuthEnvironment;
    let dir: string;

    beforeAll(async () => {
      // Served by this API (MAP_PMTILES_URL is a path), but not an archive: every tile fails.
      dir = mkdtempSync(join(tmpdir(), 'locus-offline-map-'));
      writeFileSync(join(dir, 'broken.pmtiles'), Buffer.alloc(32 * 1024, 7));
      env = await startAuthEnvironment({ MAP_PMTILES_URL: join(dir, 'broken.pmtiles') });
    });

    afterAll(async () => {
      await env?.close();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it('reads the archive ahead of the raster tiles, and falls back to the offline map', async () => {
      const { page } = await newPage(env.browser);
      const ranges: string[] = [];
      page.on('request', (request) => {
        if (request.url().endsWith('/map-data/basemap.pmtiles'))
          ranges.push(request.headers()['range'] ?? '');
      });
      await signInWithForm(page, env.api.url, DISPATCHER);
      const map = page.getByRole('region', { name: 'Map' });
      await map.getByRole('status').filter({ hasText: 'Offline map' }).waitFor();
      expect(ranges.length).toBeGreaterThan(0);
      expect(ranges[0]).toMatch(/^bytes=0-/);
      // The raster tiles (this server's blank tile) were never asked for.
      expect(await map.locator('img.leaflet-tile').count()).toBe(0);
      await page.waitForFunction(
        () => document.querySelector<HTMLElement>('.leaflet-container')?.dataset.fallbackBasemap,
      );
      expect(await drawnLayers(map)).toEqual(['land', 'countries', 'states']);
      await page.context().close();
    });
  },
);
