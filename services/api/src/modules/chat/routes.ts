import { chatContract } from '@locus/contract';
import type { FastifyInstance } from 'fastify';
import { registerContract } from '../../http/contract-routes';
import { requireUser } from '../auth/guard';
import type { ChatService } from './service';

/** Chat with the caller (issue 12): thin handlers over `service.ts`. */
export function chatRoutes(app: FastifyInstance, chat: ChatService): void {
  registerContract(app, chatContract, {
    chatInitiated: async ({ params }, { request }) => ({
      status: 200,
      body: await chat.initiate(await requireUser(request), params.uuid),
    }),
    chatTranscript: async ({ params }, { request, reply }) => {
      const { fileName, text } = await chat.transcript(await requireUser(request), params.uuid);
      void reply
        .type('text/plain; charset=utf-8')
        .header('content-disposition', `attachment; filename="${fileName}"`);
      return { status: 200, body: text };
    },
  });
}
