import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { openApiDocument, type OpenApiOptions } from './openapi/document';

export { openApiDocument };

/** OpenAPI document at /api/docs/json and interactive docs at /api/docs, from the contract. */
export async function registerDocs(app: FastifyInstance, options: OpenApiOptions): Promise<void> {
  await app.register(swagger, {
    mode: 'static',
    specification: { document: openApiDocument(options) as never },
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true });
}
