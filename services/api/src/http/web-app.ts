import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Serves the built web app on the API's origin. Unknown non-API GETs that accept HTML get
 * index.html, so client-side routes survive a reload. Returns that fallback, or undefined
 * when there is no build (the API then runs alone).
 */
export async function registerWebApp(
  app: FastifyInstance,
  distDir: string,
): Promise<((request: FastifyRequest, reply: FastifyReply) => boolean) | undefined> {
  if (!existsSync(join(distDir, 'index.html'))) {
    app.log.warn({ distDir }, 'no web build found; serving the API only');
    return undefined;
  }
  await app.register(fastifyStatic, { root: distDir, wildcard: false, index: ['index.html'] });
  return (request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    const wantsPage =
      request.method === 'GET' && (request.headers.accept ?? '').includes('text/html');
    if (!wantsPage || path.startsWith('/api/') || path.startsWith('/admin/queues')) return false;
    void reply.type('text/html').sendFile('index.html');
    return true;
  };
}
