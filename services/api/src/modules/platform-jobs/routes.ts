import { platformJobsContract } from '@locus/contract';
import type { FastifyInstance } from 'fastify';
import { ApiConfig } from '../../config';
import { registerContract } from '../../http/contract-routes';
import type { AppDeps } from '../../platform/deps';
import { requirePlatformAdmin } from '../auth/guard';
import { redactConfig } from './redact-config';
import { discardJob, failedJobs, retryJob } from './service';

/** The operations console's failed jobs and configuration: platform admins only (issue 22). */
export function platformJobRoutes(
  app: FastifyInstance,
  { db, queues, config }: Pick<AppDeps, 'db' | 'queues' | 'config'>,
): void {
  registerContract(app, platformJobsContract, {
    failedJobs: async ({ query }, { request }) => {
      await requirePlatformAdmin(request);
      return { status: 200, body: await failedJobs(queues, query) };
    },
    retryJob: async ({ params }, { request }) => {
      const principal = await requirePlatformAdmin(request);
      const acting = { principal, ip: request.ip };
      return {
        status: 200,
        body: await retryJob(db, queues, acting, params.queue, params.jobId),
      };
    },
    discardJob: async ({ params }, { request }) => {
      const principal = await requirePlatformAdmin(request);
      await discardJob(db, queues, { principal, ip: request.ip }, params.queue, params.jobId);
      return { status: 204, body: undefined };
    },
    config: async (_input, { request }) => {
      await requirePlatformAdmin(request);
      return {
        status: 200,
        body: { entries: redactConfig(config, Object.keys(ApiConfig.shape)) },
      };
    },
  });
}
