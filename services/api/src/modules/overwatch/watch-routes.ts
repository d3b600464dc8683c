import { overwatchContract } from '@locus/contract';
import type { FastifyInstance } from 'fastify';
import { registerContract } from '../../http/contract-routes';
import { requireUser } from '../auth/guard';
import type { TrackingDeps } from '../location/service';
import { withRetryAfter } from '../sms/rate-limit';
import { activeWatch, startOverwatchStream } from './watch-service';

/** Starting and reopening a watch (issue 14): the location pipeline's, so the tracking deps. */
export function overwatchWatchRoutes(app: FastifyInstance, deps: TrackingDeps): void {
  const { startOverwatchStream: start, activeWatch: active } = overwatchContract;
  registerContract(
    app,
    { startOverwatchStream: start, activeWatch: active },
    {
      // It texts: a refusal by the SMS limits carries Retry-After.
      startOverwatchStream: async ({ body }, { request, reply }) => ({
        status: 200,
        body: await withRetryAfter(reply, async () =>
          startOverwatchStream(deps, await requireUser(request), body, request.ip),
        ),
      }),
      activeWatch: async (_input, { request }) => ({
        status: 200,
        body: { watch: await activeWatch(deps, await requireUser(request)) },
      }),
    },
  );
}
