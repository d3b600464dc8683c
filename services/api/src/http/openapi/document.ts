import { contract, partnerScope, routeSecurity } from '@locus/contract';
import { generateOpenApi } from '@ts-rest/open-api';
import {
  errorSchema,
  errorSchemaName,
  isErrorSchema,
  referToErrorSchema,
  sharedErrorResponses,
  sharedErrors,
} from './errors';
import { exampleOf } from './examples';
import { toJsonSchema2020, type JsonSchema } from './json-schema-dialect';
import { realtimeDescription, realtimeSchemas } from './realtime';
import { securityRequirement, securitySchemes } from './security';
import { tagDescriptions } from './tags';

/**
 * The OpenAPI 3.1 document served at `/api/docs/json`, generated from the contract: what
 * partners load into their gateways and client generators. `tests/docs/openapi.test.ts` holds it
 * to `@apidevtools/swagger-parser`, `redocly lint` (config: `redocly.yaml`) and
 * `openapi-typescript`.
 */
export interface OpenApiOptions {
  version: string;
  /** Where this deployment is reached (`PUBLIC_URL`): the document's `servers`. */
  publicUrl: string;
}

const description = `
Locus's REST API for dispatch consoles and partners, generated from the same contract the API
validates every request against.

## Authentication
Sign in with \`POST /api/v1/auth/sign-in\` and send the answered token as
\`Authorization: Bearer <token>\` (the \`sessionToken\` scheme). Operations marked with no security
need no credentials; the caller's page uses the token of the caller's link (\`callerLinkToken\`).

## Errors
Every error is \`{ "error": "<code>", "message": "…", "issues"?: [{ "path", "message" }] }\`
(\`#/components/schemas/${errorSchemaName}\`). Switch on \`error\`, never on \`message\`; the codes
are listed in the schema, and the statuses every operation shares are \`#/components/responses\`.
A request that fails validation (400 \`validation-failed\`) changes nothing.

${realtimeDescription}`;

type Operation = {
  operationId?: string;
  summary?: string;
  description?: string;
  parameters?: { name: string; schema?: JsonSchema; example?: unknown }[];
  requestBody?: { description?: string; required?: boolean; content: MediaTypes };
  responses: Record<string, Response>;
  [field: string]: unknown;
};
type MediaTypes = Record<string, { schema?: JsonSchema; example?: unknown }>;
type Response = { description: string; content?: MediaTypes } | { $ref: string };

const successDescriptions: Record<string, string> = {
  200: 'OK',
  201: 'Created',
  202: 'Accepted: the work continues in the background',
  204: 'Done; no content',
};

export function openApiDocument({ version, publicUrl }: OpenApiOptions) {
  const generated = generateOpenApi(
    contract,
    { info: { title: 'Locus API', version, description } },
    {
      // `<router>.<route>`, e.g. `tracking.startStream`: stable as long as the contract's names are.
      setOperationId: 'concatenated-path',
      operationMapper: (operation, route) => ({
        ...operation,
        security: securityRequirement(routeSecurity(route), partnerScope(route)),
      }),
    },
  );
  const components: Record<string, JsonSchema> = {
    ...Object.fromEntries(
      Object.entries(generated.components?.schemas ?? {}).map(([name, schema]) => [
        name,
        toJsonSchema2020(schema as JsonSchema),
      ]),
    ),
    [errorSchemaName]: {
      ...errorSchema,
      description: 'Every error of the API and the sockets. Clients switch on `error`.',
    },
    ...Object.fromEntries(
      Object.entries(realtimeSchemas()).map(([name, schema]) => [name, referToErrorSchema(schema)]),
    ),
  };
  const paths = Object.fromEntries(
    Object.entries(generated.paths).map(([path, item]) => [
      path,
      Object.fromEntries(
        Object.entries(item as Record<string, Operation>).map(([method, operation]) => [
          method,
          documentOperation(operation, components),
        ]),
      ),
    ]),
  );
  return {
    openapi: '3.1.0',
    info: generated.info,
    servers: [{ url: publicUrl, description: 'This Locus deployment' }],
    security: [{ sessionToken: [] }],
    tags: Object.entries(tagDescriptions).map(([name, text]) => ({ name, description: text })),
    paths,
    components: {
      schemas: components,
      responses: sharedErrorResponses(),
      securitySchemes,
    },
  };
}

/** One operation in 3.1 form, with examples and the shared error responses referenced. */
function documentOperation(operation: Operation, components: Record<string, JsonSchema>) {
  const parameters = (operation.parameters ?? []).map((parameter) => {
    if (!parameter.schema) return parameter;
    const schema = toJsonSchema2020(parameter.schema);
    return { ...parameter, schema, example: exampleOf(schema, components, parameter.name) };
  });
  const requestBody = operation.requestBody && {
    ...operation.requestBody,
    description: 'The request body.',
    required: true,
    content: withExamples(operation.requestBody.content, components),
  };
  const responses = Object.fromEntries(
    Object.entries(operation.responses).map(([status, response]) => [
      status,
      documentResponse(status, response, components),
    ]),
  );
  return {
    ...operation,
    parameters,
    ...(requestBody ? { requestBody } : {}),
    responses,
  };
}

function documentResponse(
  status: string,
  response: Response,
  components: Record<string, JsonSchema>,
): Response {
  if ('$ref' in response) return response;
  const media = response.content?.['application/json'];
  // ts-rest names an undescribed response by its status code alone.
  const undescribed = response.description === status;
  if (media?.schema && isErrorSchema(toJsonSchema2020(media.schema))) {
    const shared = sharedErrors[status];
    if (shared && undescribed) return { $ref: `#/components/responses/${shared.name}` };
    return {
      description: undescribed ? (shared?.description ?? `Error ${status}`) : response.description,
      content: {
        'application/json': {
          schema: { $ref: `#/components/schemas/${errorSchemaName}` },
          example: shared?.example ?? { error: 'internal-error', message: 'Something went wrong.' },
        },
      },
    };
  }
  return {
    description: undescribed
      ? (successDescriptions[status] ?? `Status ${status}`)
      : response.description,
    ...(response.content ? { content: withExamples(response.content, components) } : {}),
  };
}

function withExamples(content: MediaTypes, components: Record<string, JsonSchema>): MediaTypes {
  return Object.fromEntries(
    Object.entries(content).map(([type, media]) => {
      if (!media.schema) return [type, media];
      const schema = referToErrorSchema(toJsonSchema2020(media.schema));
      return [type, { ...media, schema, example: exampleOf(schema, components) }];
    }),
  );
}
