import fastifyStatic from '@fastify/static';
import type { FastifyError, FastifyInstance } from 'fastify';
import { basename, dirname } from 'node:path';
import type { ApiConfig } from '../../config';
import { PMTILES_PATH, pmtilesLocation } from './location';

/**
 * Serves a local PMTiles archive (MAP_PMTILES_URL set to a path) at a fixed public path. The
 * browser's PMTiles reader fetches byte ranges of it, so Range (206), HEAD and 416 must work:
 * @fastify/static answers them, with ETag and Last-Modified. An hour of caching, revalidated
 * after that, so a replaced archive reaches browsers within the hour. Basemap data is public,
 * like the map tiles: no sign-in, so the map draws before the session is checked.
 *
 * Only the one file is served, never its directory: it is registered in a scope of its own
 * with `serve: false`, and the route names the file.
 */
export async function mapDataRoutes(app: FastifyInstance, config: ApiConfig): Promise<void> {
  const location = pmtilesLocation(config.MAP_PMTILES_URL);
  if (location?.kind !== 'file') return;
  const name = basename(location.file);
  await app.register(async (scope) => {
    await scope.register(fastifyStatic, {
      root: dirname(location.file),
      serve: false,
      cacheControl: false,
      dotfiles: 'allow',
    });
    // A range past the end must say the real length (Content-Range), which the PMTiles reader
    // uses to retry; the app's error handler would answer with its JSON error shape instead.
    scope.setErrorHandler(
      (error: FastifyError & { headers?: Record<string, string> }, _, reply) => {
        if (error.statusCode !== 416) throw error;
        return reply
          .code(416)
          .headers(error.headers ?? {})
          .send();
      },
    );
    scope.get(PMTILES_PATH, { logLevel: 'warn' }, (_request, reply) =>
      reply
        .header('cache-control', 'public, max-age=3600')
        .type('application/vnd.pmtiles')
        .sendFile(name),
    );
  });
}
