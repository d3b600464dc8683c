import { ErrorBody } from '@locus/contract';
import { generateSchema } from '@anatine/zod-openapi';
import { toJsonSchema2020, type JsonSchema } from './json-schema-dialect';

/**
 * The error shape and its codes, documented once (`#/components/schemas/Error`) and referenced
 * by every operation: each status the API shares across routes is one reusable response.
 */
export const errorSchemaName = 'Error';
export const errorSchema = toJsonSchema2020(
  generateSchema(ErrorBody) as unknown as JsonSchema,
) satisfies JsonSchema;
const errorSchemaJson = JSON.stringify(errorSchema);

export const isErrorSchema = (schema: unknown): boolean =>
  JSON.stringify(schema) === errorSchemaJson;

interface SharedError {
  name: string;
  description: string;
  example: ErrorBody;
}

export const sharedErrors: Record<string, SharedError> = {
  400: {
    name: 'BadRequest',
    description:
      'The input does not match the contract: `validation-failed`, and `issues` names each field ' +
      'that is wrong. Nothing was changed.',
    example: {
      error: 'validation-failed',
      message: 'The request body is not valid.',
      issues: [{ path: 'phoneNumber', message: 'Required' }],
    },
  },
  401: {
    name: 'Unauthorized',
    description:
      'No valid session: `unauthorized` (no or unknown token) or `session-expired` (sign in again). ' +
      'The sign-in steps answer `invalid-credentials`, `invalid-mfa-code` or `mfa-challenge-expired`.',
    example: { error: 'unauthorized', message: 'Sign in to continue.' },
  },
  403: {
    name: 'Forbidden',
    description:
      'Signed in, but not allowed: `forbidden` (role or team), `mfa-required` (a team requires ' +
      'two-step sign-in), or a precondition of SPEC.md §8 such as `verify-email`.',
    example: { error: 'forbidden', message: 'Only admins can do this.' },
  },
  404: {
    name: 'NotFound',
    description: '`not-found`: nothing with that id that the caller may see.',
    example: { error: 'not-found', message: 'Not found.' },
  },
  409: {
    name: 'Conflict',
    description:
      '`conflict`: the request does not fit the current state (it was already done or undone).',
    example: { error: 'conflict', message: 'The transfer is no longer pending.' },
  },
  422: {
    name: 'Unprocessable',
    description: 'Well formed but not possible, such as `untextable-number`.',
    example: { error: 'untextable-number', message: 'This number cannot receive text messages.' },
  },
  429: {
    name: 'RateLimited',
    description: '`rate-limited`: too many attempts; wait for the `Retry-After` header.',
    example: { error: 'rate-limited', message: 'Too many attempts. Try again in a minute.' },
  },
  500: {
    name: 'InternalError',
    description: '`internal-error`: a fault of Locus. Nothing that was accepted is lost; retry.',
    example: { error: 'internal-error', message: 'Something went wrong.' },
  },
  503: {
    name: 'ServiceUnavailable',
    description:
      '`service-unavailable`: Locus cannot reach its database or Redis for a moment; retry after ' +
      'the `Retry-After` header.',
    example: { error: 'service-unavailable', message: 'Locus is briefly unavailable.' },
  },
};

/** `components.responses`: one per shared status, each the error shape with an example. */
export function sharedErrorResponses(): Record<string, unknown> {
  return Object.fromEntries(
    Object.values(sharedErrors).map(({ name, description, example }) => [
      name,
      {
        description,
        content: {
          'application/json': {
            schema: { $ref: `#/components/schemas/${errorSchemaName}` },
            example,
          },
        },
      },
    ]),
  );
}

/** The schema with every inline copy of the error shape replaced by a reference to it. */
export function referToErrorSchema(schema: JsonSchema): JsonSchema {
  if (isErrorSchema(schema)) return { $ref: `#/components/schemas/${errorSchemaName}` };
  return Object.fromEntries(
    Object.entries(schema).map(([keyword, value]) => [keyword, referInside(value)]),
  );
}

function referInside(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(referInside);
  if (typeof value === 'object' && value !== null) return referToErrorSchema(value as JsonSchema);
  return value;
}
