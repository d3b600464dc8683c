import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request, type IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, testRedisPrefix, type TestApi } from '../support/api';
import { freshDatabase, type TestDatabase } from '../support/database';
import { testEnvironment } from '../support/environment';

// Issue 10, "Serving": the built web app goes out precompressed, hashed assets are cached for
// good, and HTML is revalidated on every load. The caller's page is its own entry.

const IMMUTABLE = 'public, max-age=31536000, immutable';
const scriptsOf = (html: string) =>
  [...html.matchAll(/<script[^>]+src="(\/assets\/[^"]+\.js)"/g)].map(([, src]) => src!);

let dist: string;
let database: TestDatabase;
let api: TestApi;
let mainScript: string;
let shareScript: string;

/**
 * A private copy of web/dist taken while it is complete (both pages, their scripts and the
 * compressed copies): others rebuild web/dist while tests run, and a rebuild empties it first.
 */
async function snapshotWebDist(): Promise<string> {
  const source = testEnvironment.webDist();
  const complete = (root: string) => {
    const pages = ['index.html', 'share.html'];
    if (!pages.every((page) => existsSync(join(root, page)))) return false;
    const files = pages.flatMap((page) => [
      page,
      ...scriptsOf(readFileSync(join(root, page), 'utf8')).map((src) => src.slice(1)),
    ]);
    // The caller page's service worker, written with share.html (web/build/caller-page.ts).
    files.push('share-sw.js');
    return files.every((file) =>
      ['', '.br', '.gz'].every((suffix) => existsSync(join(root, file + suffix))),
    );
  };
  const dir = mkdtempSync(join(tmpdir(), 'locus-web-serving-'));
  for (let attempt = 0; attempt < 600; attempt += 1) {
    if (complete(source)) {
      cpSync(source, dir, { recursive: true });
      if (complete(dir)) return dir;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no complete web build in ${source}`);
}

/** A GET over plain node:http: fetch would add its own Accept-Encoding and decompress. */
function get(
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    request(`${api.url}${path}`, { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          body: Buffer.concat(chunks),
        }),
      );
      response.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

const built = (path: string) => readFileSync(join(dist, path.replace(/^\//, '')));
const page = { accept: 'text/html,application/xhtml+xml', 'accept-encoding': 'br, gzip' };

beforeAll(async () => {
  dist = await snapshotWebDist();
  mainScript = scriptsOf(built('index.html').toString('utf8'))[0]!;
  shareScript = scriptsOf(built('share.html').toString('utf8'))[0]!;
  database = await freshDatabase();
  api = await startApi({
    databaseUrl: database.url,
    redisPrefix: testRedisPrefix(),
    env: { WEB_DIST_DIR: dist },
  });
});

afterAll(async () => {
  await api?.close();
  await database?.drop();
  if (dist) rmSync(dist, { recursive: true, force: true });
});

describe('hashed assets', () => {
  it('go out as brotli to a client that accepts it, and decompress to the built file', async () => {
    const response = await get(mainScript, { 'accept-encoding': 'br, gzip' });
    expect(response.status).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers['content-type']).toMatch(/javascript/);
    expect(response.headers['vary']).toMatch(/accept-encoding/i);
    expect(response.headers['cache-control']).toBe(IMMUTABLE);
    expect(response.body.length).toBeLessThan(built(mainScript).length / 2);
    expect(brotliDecompressSync(response.body).equals(built(mainScript))).toBe(true);
  });

  it('go out as gzip to a client that accepts only gzip', async () => {
    const response = await get(mainScript, { 'accept-encoding': 'gzip' });
    expect(response.headers['content-encoding']).toBe('gzip');
    expect(response.headers['cache-control']).toBe(IMMUTABLE);
    expect(gunzipSync(response.body).equals(built(mainScript))).toBe(true);
  });

  it('go out as they are to a client that accepts no compression', async () => {
    const response = await get(shareScript);
    expect(response.status).toBe(200);
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.headers['vary']).toMatch(/accept-encoding/i);
    expect(response.headers['cache-control']).toBe(IMMUTABLE);
    expect(response.body.equals(built(shareScript))).toBe(true);
  });
});

describe('HTML', () => {
  it.each(['/', '/index.html', '/dashboard', '/share?token=abc', '/share.html'])(
    '%s is compressed and revalidated on every load',
    async (path) => {
      const response = await get(path, page);
      expect(response.status).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expect(response.headers['content-encoding']).toBe('br');
      expect(response.headers['vary']).toMatch(/accept-encoding/i);
      expect(response.headers['cache-control']).toBe('no-cache');
    },
  );

  it('answers a revalidation of an unchanged page with 304', async () => {
    const first = await get('/', page);
    const etag = first.headers['etag'];
    expect(etag).toBeTruthy();
    const again = await get('/', { ...page, 'if-none-match': etag! });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
  });

  it("serves the caller's own entry on /share, never the console's", async () => {
    const response = await get('/share?token=x', page);
    const html = brotliDecompressSync(response.body).toString('utf8');
    expect(html).toBe(built('share.html').toString('utf8'));
    expect(html).toMatch(/<script[^>]+src="\/assets\/share-[^"]+\.js"/);
    expect(html).not.toContain(mainScript);
  });

  it("announces the caller's link lookup with the page, for a token that could be one", async () => {
    const token = 'A'.repeat(43);
    const response = await get(`/share?token=${token}`, page);
    expect(response.headers['link']).toBe(
      `</api/v1/caller/link?token=${token}>; rel=preload; as=fetch; crossorigin=anonymous`,
    );
    for (const path of ['/share?token=x', '/share', `/share?token=${token}%3E%3Bx`]) {
      expect((await get(path, page)).headers['link'], path).toBeUndefined();
    }
  });

  it("serves the console's entry for its client-side routes", async () => {
    const response = await get('/dashboard', { accept: 'text/html', 'accept-encoding': 'gzip' });
    expect(response.headers['content-encoding']).toBe('gzip');
    expect(response.headers['cache-control']).toBe('no-cache');
    const html = gunzipSync(response.body).toString('utf8');
    expect(html).toBe(built('index.html').toString('utf8'));
    expect(html).toContain(mainScript);
    expect(html).not.toContain(shareScript);
  });

  it('still answers unknown API paths with the JSON error', async () => {
    const response = await get('/api/v1/nothing-here', page);
    expect(response.status).toBe(404);
    expect(JSON.parse(response.body.toString('utf8'))).toMatchObject({ error: 'not-found' });
  });
});

describe("the caller page's service worker", () => {
  /** The paths the worker keeps at install, as its build wrote them into it. */
  const precached = () => {
    const source = built('/share-sw.js').toString('utf8');
    return [...source.matchAll(/"(\/(?:assets\/[^"]+|share\.html))"/g)].map(([, path]) => path!);
  };

  it('is JavaScript at a URL that never changes, compressed and revalidated on every load', async () => {
    const response = await get('/share-sw.js', { 'accept-encoding': 'br, gzip' });
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toMatch(/^(?:text|application)\/javascript/);
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(brotliDecompressSync(response.body).equals(built('/share-sw.js'))).toBe(true);
    const again = await get('/share-sw.js', {
      'accept-encoding': 'br, gzip',
      'if-none-match': response.headers['etag']!,
    });
    expect(again.status).toBe(304);
  });

  it("keeps the caller's page and its script, and nothing of the console", async () => {
    expect(new Set(precached())).toEqual(new Set(['/share.html', shareScript]));
    const source = built('/share-sw.js').toString('utf8');
    expect(source).not.toContain(mainScript);
    expect(source).not.toContain('index.html');
    for (const path of precached()) {
      const response = await get(path, { 'accept-encoding': 'br, gzip' });
      expect(response.status, path).toBe(200);
    }
  });

  it('leaves the caller page, its link lookup and its preload as they were', async () => {
    const token = 'A'.repeat(43);
    const share = await get(`/share?token=${token}`, page);
    expect(share.headers['cache-control']).toBe('no-cache');
    expect(share.headers['link']).toContain(`/api/v1/caller/link?token=${token}`);
    expect(share.headers['service-worker-allowed']).toBeUndefined();
    const link = await get(`/api/v1/caller/link?token=${token}`, { accept: 'application/json' });
    expect(link.status).toBe(200);
    expect(JSON.parse(link.body.toString('utf8'))).toMatchObject({ status: 'invalid' });
  });
});

describe('other public files', () => {
  it('are cached for an hour, since their names survive a deploy', async () => {
    const response = await get('/favicon.svg', { 'accept-encoding': 'br, gzip' });
    expect(response.status).toBe(200);
    expect(response.headers['cache-control']).toBe('public, max-age=3600');
    expect(response.headers['content-encoding']).toBe('br');
  });
});
