import fastifyStatic from '@fastify/static';
import { trainingContract } from '@locus/contract';
import type { FastifyInstance } from 'fastify';
import { existsSync } from 'node:fs';
import { registerContract } from '../../http/contract-routes';
import type { AppDeps } from '../../platform/deps';
import { requireUser } from '../auth/guard';
import { TRAINING_MEDIA_PREFIX, type TrainingCatalogue } from './catalogue';
import { listVideos, markUnwatched, markWatched } from './service';

/**
 * Training videos (issue 14): the deployment's list with each user's watched state, and the
 * self-hosted files under `/training-media/`. Those are served to anyone, as the web app is (a
 * `<video>` element cannot send the bearer token); they are teaching material, not data.
 */
export async function trainingRoutes(
  app: FastifyInstance,
  { db, catalogue }: Pick<AppDeps, 'db'> & { catalogue: TrainingCatalogue },
): Promise<void> {
  registerContract(app, trainingContract, {
    videos: async (_input, { request }) => {
      const { userId } = await requireUser(request);
      return { status: 200, body: { videos: await listVideos(db, catalogue, userId) } };
    },
    markWatched: async ({ params }, { request }) => {
      const { userId } = await requireUser(request);
      return { status: 200, body: await markWatched(db, catalogue, userId, params.id) };
    },
    markUnwatched: async ({ params }, { request }) => {
      const { userId } = await requireUser(request);
      return { status: 200, body: await markUnwatched(db, catalogue, userId, params.id) };
    },
  });

  if (!existsSync(catalogue.mediaDir)) return;
  // @fastify/static answers Range requests (206), which is how a browser seeks in a video.
  await app.register(fastifyStatic, {
    root: catalogue.mediaDir,
    prefix: TRAINING_MEDIA_PREFIX,
    decorateReply: false,
    wildcard: true,
    index: false,
    dotfiles: 'deny',
    cacheControl: false,
    setHeaders: (reply) => reply.header('cache-control', 'public, max-age=3600'),
  });
}
