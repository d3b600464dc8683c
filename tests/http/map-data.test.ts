import { parseConfig } from '@locus/api';
import type { PublicConfig } from '@locus/contract';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, testRedisPrefix, type TestApi } from '../support/api';
import { freshDatabase, type TestDatabase } from '../support/database';

// Issue 14, "Maps on a closed network": a PMTiles archive on the API's own disk is served at a
// fixed path, by byte range, the way the browser's PMTiles reader fetches it.

const PATH = '/map-data/basemap.pmtiles';
let dir: string;
let archive: Buffer;
let database: TestDatabase;
let local: TestApi;
let remote: TestApi;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'locus-map-data-'));
  // Only bytes matter to the route; these are not a real archive.
  archive = Buffer.concat([Buffer.from('PMTiles\x03'), randomBytes(64 * 1024)]);
  writeFileSync(join(dir, 'region.pmtiles'), archive);
  writeFileSync(join(dir, 'secret.txt'), 'not for the browser');
  database = await freshDatabase();
  const redisPrefix = testRedisPrefix();
  local = await startApi({
    databaseUrl: database.url,
    redisPrefix,
    env: { MAP_PMTILES_URL: join(dir, 'region.pmtiles') },
  });
  remote = await startApi({
    databaseUrl: database.url,
    redisPrefix,
    env: {
      MAP_PMTILES_URL: 'https://tiles.example.net/basemaps/us.pmtiles',
      MAP_TILE_URL: 'http://{s}.tiles.internal:8080/{z}/{x}/{y}.png',
    },
  });
});

afterAll(async () => {
  await local?.close();
  await remote?.close();
  await database?.drop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function mapConfig(api: TestApi): Promise<PublicConfig['map']> {
  const response = await fetch(`${api.url}/api/v1/config`);
  return ((await response.json()) as PublicConfig).map;
}

describe('a PMTiles archive on this server', () => {
  it('is what the public configuration points the browser at', async () => {
    expect((await mapConfig(local)).pmtilesUrl).toBe(PATH);
  });

  it('answers a byte range with 206 and exactly those bytes', async () => {
    const response = await fetch(`${local.url}${PATH}`, { headers: { range: 'bytes=100-16483' } });
    expect(response.status).toBe(206);
    expect(response.headers.get('content-range')).toBe(`bytes 100-16483/${archive.length}`);
    expect(response.headers.get('content-length')).toBe('16384');
    const body = Buffer.from(await response.arrayBuffer());
    expect(body.equals(archive.subarray(100, 16484))).toBe(true);
  });

  it('answers the archive header read (the first bytes) and an open-ended range', async () => {
    const first = await fetch(`${local.url}${PATH}`, { headers: { range: 'bytes=0-126' } });
    expect(first.status).toBe(206);
    expect(Buffer.from(await first.arrayBuffer()).equals(archive.subarray(0, 127))).toBe(true);
    const tail = await fetch(`${local.url}${PATH}`, { headers: { range: 'bytes=-10' } });
    expect(tail.status).toBe(206);
    expect(Buffer.from(await tail.arrayBuffer()).equals(archive.subarray(-10))).toBe(true);
  });

  it('refuses a range past the end with 416 and the real length', async () => {
    const response = await fetch(`${local.url}${PATH}`, {
      headers: { range: `bytes=${archive.length + 10}-${archive.length + 20}` },
    });
    expect(response.status).toBe(416);
    expect(response.headers.get('content-range')).toBe(`bytes */${archive.length}`);
  });

  it('answers HEAD with its length, that it takes ranges, and how long to cache it', async () => {
    const response = await fetch(`${local.url}${PATH}`, { method: 'HEAD' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-length')).toBe(String(archive.length));
    expect(response.headers.get('accept-ranges')).toBe('bytes');
    expect(response.headers.get('cache-control')).toBe('public, max-age=3600');
    expect(response.headers.get('etag')).toBeTruthy();
    expect(response.headers.get('last-modified')).toBeTruthy();
  });

  it('serves the whole file to a plain GET, and is revalidated with its ETag', async () => {
    const response = await fetch(`${local.url}${PATH}`);
    expect(response.status).toBe(200);
    expect(Buffer.from(await response.arrayBuffer()).equals(archive)).toBe(true);
    // node:http, not fetch: fetch adds `Cache-Control: no-cache` to a conditional request.
    const status = await new Promise<number | undefined>((resolve, reject) =>
      request(`${local.url}${PATH}`, {
        headers: { 'if-none-match': response.headers.get('etag')! },
      })
        .on('response', (answer) => {
          answer.resume();
          resolve(answer.statusCode);
        })
        .on('error', reject)
        .end(),
    );
    expect(status).toBe(304);
  });

  it('serves only that file, not its directory', async () => {
    for (const path of ['/map-data/secret.txt', '/map-data/region.pmtiles', '/map-data/']) {
      const response = await fetch(`${local.url}${path}`, { headers: { accept: '*/*' } });
      expect(response.status, path).toBe(404);
    }
  });
});

describe('a PMTiles archive elsewhere', () => {
  it('is read by the browser directly, which the content security policy allows', async () => {
    expect((await mapConfig(remote)).pmtilesUrl).toBe(
      'https://tiles.example.net/basemaps/us.pmtiles',
    );
    const response = await fetch(`${remote.url}/api/v1/config`);
    const policy = response.headers.get('content-security-policy') ?? '';
    expect(policy).toMatch(/connect-src [^;]*https:\/\/tiles\.example\.net/);
    // A tile server on plain http, as closed networks often have, is allowed by name.
    expect(policy).toMatch(/img-src [^;]*http:\/\/\*\.tiles\.internal:8080/);
  });

  it('leaves this server with nothing at the archive path', async () => {
    const response = await fetch(`${remote.url}${PATH}`, { headers: { accept: '*/*' } });
    expect(response.status).toBe(404);
  });
});

describe('the configuration', () => {
  const base = {
    DATABASE_URL: 'postgres://localhost/locus',
    REDIS_URL: 'redis://localhost:6379',
  };

  it('has no archive unless one is set (an empty value is unset)', () => {
    expect(parseConfig({ ...base, MAP_PMTILES_URL: '' }).MAP_PMTILES_URL).toBeUndefined();
  });

  it('refuses an archive path with no file behind it, at boot', () => {
    expect(() => parseConfig({ ...base, MAP_PMTILES_URL: join(dir, 'missing.pmtiles') })).toThrow(
      /MAP_PMTILES_URL: no such file/,
    );
  });
});
