import fastifyStatic from '@fastify/static';
import { callerLinkPath, callerLinkTokenPattern } from '@locus/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { existsSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

/**
 * The caller page's service worker (web/build/caller-page.ts). Its URL never changes, and the
 * browser compares it byte for byte to find a deploy: like HTML, it is revalidated every time.
 */
const CALLER_SERVICE_WORKER = 'share-sw.js';

/**
 * How long a browser may keep a file of the build. Vite puts only content-hashed files in
 * assets/, so they never change under their name; HTML and the caller page's service worker
 * must be revalidated on every load so a deploy reaches callers at once (they are tiny, and the
 * ETag makes the check a 304); public files (favicon, map tiles) keep their name across
 * deploys, so they get an hour.
 */
function cacheControl(distDir: string, file: string): string {
  // `file` may be the precompressed variant (index.html.br); the rule is the original's.
  const name = relative(distDir, file)
    .split(sep)
    .join('/')
    .replace(/\.(?:br|gz)$/, '');
  if (name.endsWith('.html') || name === CALLER_SERVICE_WORKER) return 'no-cache';
  if (name.startsWith('assets/')) return 'public, max-age=31536000, immutable';
  return 'public, max-age=3600';
}

/**
 * Serves the built web app on the API's origin. The build holds a brotli and a gzip copy of
 * each text file (web/build/precompress.ts): `preCompressed` sends the best one the client
 * accepts, with `Vary: Accept-Encoding`, because callers on one bar of signal should not wait
 * for bytes we could have left out. Unknown non-API GETs that accept HTML get index.html, so
 * client-side routes survive a reload, except `/share`, the caller's page, which is its own
 * entry (share.html) and must never load the console. Returns that fallback, or undefined
 * when there is no build (the API then runs alone).
 *
 * No `103 Early Hints`: Chromium honours them only over HTTP/2 and later, and this server
 * speaks HTTP/1.1; the caller's page needs only its HTML, one script and (preloaded, see
 * below) the answer about its link.
 */
export async function registerWebApp(
  app: FastifyInstance,
  distDir: string,
): Promise<((request: FastifyRequest, reply: FastifyReply) => boolean) | undefined> {
  if (!existsSync(join(distDir, 'index.html'))) {
    app.log.warn({ distDir }, 'no web build found; serving the API only');
    return undefined;
  }
  await app.register(fastifyStatic, {
    root: distDir,
    wildcard: false,
    index: ['index.html'],
    preCompressed: true,
    // setHeaders runs for the static routes and for sendFile below alike.
    cacheControl: false,
    setHeaders: (reply, file) => reply.header('cache-control', cacheControl(distDir, file)),
  });
  return (request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    const wantsPage =
      request.method === 'GET' && (request.headers.accept ?? '').includes('text/html');
    if (!wantsPage || path.startsWith('/api/') || path.startsWith('/admin/queues')) return false;
    if (path !== '/share') {
      void reply.type('text/html').sendFile('index.html');
      return true;
    }
    // The caller's page asks the API about its link as soon as its script runs; announced
    // here, the browser fetches the answer while it is still downloading that script, which
    // saves a whole round trip (300 ms on 3G) before the consent button.
    const token = new URLSearchParams(request.url.split('?')[1] ?? '').get('token');
    if (token !== null && callerLinkTokenPattern.test(token)) {
      void reply.header(
        'link',
        `<${callerLinkPath}?token=${token}>; rel=preload; as=fetch; crossorigin=anonymous`,
      );
    }
    void reply.type('text/html').sendFile('share.html');
    return true;
  };
}
