import fc from 'fast-check';
import {
  bodyMutation,
  hostileValue,
  mutateBody,
  validValue,
  type BodyMutation,
  type JsonSchema,
  type ValuePool,
} from './schema-arbitrary';

/** One operation of the served OpenAPI document, as the fuzzer reads it. */
export interface Operation {
  id: string;
  method: string;
  /** The document's path, with `{name}` placeholders. */
  path: string;
  parameters: {
    name: string;
    in: 'path' | 'query' | 'header';
    required: boolean;
    schema: JsonSchema;
  }[];
  body?: { contentType: string; schema: JsonSchema };
  /** Who the document says may call it. */
  security: 'public' | 'session' | 'partner' | 'callerLink';
}

interface DocumentOperation {
  operationId: string;
  parameters?: { name: string; in: string; required?: boolean; schema?: JsonSchema }[];
  requestBody?: { content: Record<string, { schema?: JsonSchema }> };
  security?: Record<string, string[]>[];
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, DocumentOperation>>;
}

/** Every operation of the document. */
export function operationsOf(document: OpenApiDocument): Operation[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => {
      const schemes = (operation.security ?? []).flatMap((requirement) => Object.keys(requirement));
      const security: Operation['security'] = schemes.includes('partnerKey')
        ? 'partner'
        : schemes.includes('callerLinkToken')
          ? 'callerLink'
          : schemes.includes('sessionToken')
            ? 'session'
            : 'public';
      const [contentType, media] = Object.entries(operation.requestBody?.content ?? {})[0] ?? [];
      return {
        id: operation.operationId,
        method: method.toUpperCase(),
        path,
        parameters: (operation.parameters ?? []).map((parameter) => ({
          name: parameter.name,
          in: parameter.in as 'path' | 'query' | 'header',
          required: parameter.required === true,
          schema: parameter.schema ?? {},
        })),
        ...(contentType ? { body: { contentType, schema: media?.schema ?? {} } } : {}),
        security,
      };
    }),
  );
}

/**
 * The pool a path parameter draws from: `{id}` means a team, a user, a session, a call list…
 * depending on the operation, which the operation id and path say.
 */
export function pathPoolName(operation: Operation, parameter: string): string {
  if (parameter !== 'id' && parameter !== 'a' && parameter !== 'b') return parameter;
  const { id, path } = operation;
  if (parameter === 'a') return 'callListId';
  if (parameter === 'b') return 'userId';
  if (/^(authSessions\.(team|setTeam)Security|teams\.|teamMembers\.)/.test(id))
    return id === 'teams.userTeam' ? 'userId' : 'teamId';
  if (id === 'callLists.create') return 'teamId';
  if (id.startsWith('callLists.')) return 'callListId';
  if (/^(users\.|usersAdmin\.|verification\.)/.test(id)) return 'userId';
  if (id.startsWith('overwatch.')) return 'groupId';
  if (id.startsWith('apiKeys.')) return 'apiKeyId';
  if (/[Ww]ebhooks\./.test(id)) return 'webhookId';
  if (id.startsWith('psap.')) return 'psapId';
  if (path.includes('/sessions/{id}') || id === 'tracking.latestLocation') return 'sessionId';
  return 'id';
}

export interface FuzzRequest {
  valid: boolean;
  /** What was broken, for the figures (`valid` when nothing). */
  mutation: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string;
}

type Mutation =
  | { target: 'path'; value: unknown; pick: number }
  | { target: 'query'; value: unknown; pick: number; unknown: boolean }
  | { target: 'body'; mutation: BodyMutation; pick: number }
  | { target: 'raw-body'; text: string }
  | { target: 'content-type'; type: string }
  | { target: 'header'; value: string };

const rawBodies = fc.oneof(
  fc.constantFrom(
    '{',
    '{"a":',
    'null',
    '[',
    '"\\ud800"',
    '{"a":1}{"b":2}',
    '\u0000',
    'x'.repeat(70_000),
    '{"a":"' + 'x'.repeat(2_000_000) + '"}',
  ),
  fc.string({ unit: 'binary', maxLength: 200 }),
);

function mutationFor(operation: Operation): fc.Arbitrary<Mutation> {
  const options: fc.Arbitrary<Mutation>[] = [];
  const pick = fc.nat({ max: 1000 });
  const hostileText = hostileValue.map((value) =>
    typeof value === 'string' ? value : (JSON.stringify(value) ?? 'undefined'),
  );
  if (operation.parameters.some((parameter) => parameter.in === 'path'))
    options.push(
      fc.record({ value: hostileText, pick }).map<Mutation>((m) => ({ target: 'path', ...m })),
    );
  options.push(
    fc
      .record({ value: hostileValue, pick, unknown: fc.boolean() })
      .map<Mutation>((m) => ({ target: 'query', ...m })),
  );
  if (operation.body) {
    options.push(
      fc.record({ mutation: bodyMutation, pick }).map<Mutation>((m) => ({ target: 'body', ...m })),
      fc.record({ mutation: bodyMutation, pick }).map<Mutation>((m) => ({ target: 'body', ...m })),
      rawBodies.map<Mutation>((text) => ({ target: 'raw-body', text })),
      fc
        .constantFrom(
          'text/plain',
          'application/xml',
          'multipart/form-data; boundary=x',
          'application/json; charset=utf-16',
        )
        .map<Mutation>((type) => ({ target: 'content-type', type })),
    );
  }
  options.push(hostileText.map<Mutation>((value) => ({ target: 'header', value })));
  return fc.oneof(...options);
}

/** A path segment or query value; a lone surrogate (no UTF-8 for it) goes as its raw bytes. */
function encodeSegment(value: unknown): string {
  return String(value)
    .split(/([\uD800-\uDFFF])/)
    .map((part) => {
      try {
        return encodeURIComponent(part);
      } catch {
        return '%ED%A0%80';
      }
    })
    .join('');
}

function queryPairs(name: string, value: unknown): [string, string][] {
  if (value === undefined) return [];
  if (Array.isArray(value)) return value.flatMap((item) => queryPairs(name, item));
  if (typeof value === 'object' && value !== null) return [[name, JSON.stringify(value)]];
  return [[name, String(value)]];
}

function encodeBody(contentType: string, body: unknown): string {
  if (contentType === 'application/x-www-form-urlencoded') {
    const record = typeof body === 'object' && body !== null ? body : { value: body };
    return new URLSearchParams(
      Object.entries(record).map(([key, value]) => [
        key,
        typeof value === 'string' ? value : (JSON.stringify(value) ?? ''),
      ]),
    ).toString();
  }
  return JSON.stringify(body) ?? 'null';
}

/**
 * Requests for one operation: about half valid by the document (path, query, header and body
 * drawn from their schemas, with real ids and numbers from the pool), the rest with one part
 * broken (a hostile path segment or query value, a body missing a required field or with a
 * hostile one, unparseable JSON, the wrong content type, a hostile header).
 */
export type PoolContext = 'demo' | 'neighbour' | 'locus' | 'any';

export function requestArbitrary(
  operation: Operation,
  poolFor: (context: PoolContext) => ValuePool,
  contexts: readonly PoolContext[] = ['demo', 'neighbour', 'locus', 'any'],
): fc.Arbitrary<FuzzRequest> {
  return fc.oneof(...contexts.map((context) => requestFrom(operation, poolFor(context))));
}

function requestFrom(operation: Operation, pool: ValuePool): fc.Arbitrary<FuzzRequest> {
  const parameterModel = Object.fromEntries(
    operation.parameters.map((parameter) => [
      `${parameter.in}:${parameter.name}`,
      validValue(
        parameter.schema,
        pool,
        parameter.in === 'path' ? pathPoolName(operation, parameter.name) : parameter.name,
      ),
    ]),
  );
  const requiredParameters = operation.parameters
    .filter((parameter) => parameter.required || parameter.in === 'path')
    .map((parameter) => `${parameter.in}:${parameter.name}`);
  const parameters = fc.record(parameterModel, { requiredKeys: requiredParameters });
  const body = operation.body ? validValue(operation.body.schema, pool) : fc.constant(undefined);
  return fc
    .record({
      valid: fc.boolean(),
      parameters,
      body,
      mutation: mutationFor(operation),
    })
    .map(({ valid, parameters: values, body: validBody, mutation }) =>
      build(operation, valid, values as Record<string, unknown>, validBody, mutation),
    );
}

function build(
  operation: Operation,
  valid: boolean,
  values: Record<string, unknown>,
  validBody: unknown,
  mutation: Mutation,
): FuzzRequest {
  const applied = valid ? undefined : mutation;
  const pathNames = operation.parameters.filter((p) => p.in === 'path').map((p) => p.name);
  const brokenPath =
    applied?.target === 'path' ? pathNames[applied.pick % pathNames.length] : undefined;
  const path = operation.path.replace(/\{([^}]+)\}/g, (_whole, name: string) =>
    name === brokenPath && applied?.target === 'path'
      ? encodeSegment(applied.value)
      : encodeSegment(values[`path:${name}`]),
  );
  const pairs: [string, string][] = operation.parameters
    .filter((parameter) => parameter.in === 'query')
    .flatMap((parameter) => queryPairs(parameter.name, values[`query:${parameter.name}`]));
  if (applied?.target === 'query') {
    const queryNames = operation.parameters.filter((p) => p.in === 'query').map((p) => p.name);
    const name =
      applied.unknown || queryNames.length === 0
        ? ['token', 'teamId', 'page', '__proto__', 'x'][applied.pick % 5]!
        : queryNames[applied.pick % queryNames.length]!;
    const text =
      typeof applied.value === 'string' ? applied.value : (JSON.stringify(applied.value) ?? '');
    // Sometimes the parameter twice, which a query parser turns into an array.
    pairs.push([name, text]);
    if (applied.pick % 3 === 0) pairs.push([name, text]);
  }
  const query = pairs.length
    ? `?${pairs.map(([k, v]) => `${encodeSegment(k)}=${encodeSegment(v)}`).join('&')}`
    : '';
  const headers: Record<string, string> = {};
  for (const parameter of operation.parameters.filter((p) => p.in === 'header')) {
    const value = values[`header:${parameter.name}`];
    if (value !== undefined) headers[parameter.name] = String(value);
  }
  if (applied?.target === 'header') {
    const names = operation.parameters.filter((p) => p.in === 'header').map((p) => p.name);
    // A hostile value in a header the route reads, else in the cookie the session may come from.
    const safe = applied.value.replace(/[^\x20-\x7e]/g, '?').slice(0, 8000);
    headers[names[0] ?? 'cookie'] = names[0] ? safe : `locus_session=${safe}`;
  }
  let payload: string | undefined;
  if (operation.body) {
    const contentType = operation.body.contentType;
    headers['content-type'] = contentType;
    if (applied?.target === 'body' && applied.mutation.kind === 'deep-nesting')
      // Written out, not stringified: JSON.stringify itself recurses.
      payload = `${'{"a":['.repeat(applied.mutation.depth)}1${']}'.repeat(applied.mutation.depth)}`;
    else if (applied?.target === 'body')
      payload = encodeBody(
        contentType,
        mutateBody(validBody, operation.body.schema, applied.mutation, applied.pick),
      );
    else if (applied?.target === 'raw-body') payload = applied.text;
    else payload = encodeBody(contentType, validBody);
    if (applied?.target === 'content-type') headers['content-type'] = applied.type;
  }
  const mutationName = !applied
    ? 'valid'
    : applied.target === 'body'
      ? `body:${applied.mutation.kind}`
      : applied.target;
  return {
    valid: !applied,
    mutation: mutationName,
    method: operation.method,
    url: `${path}${query}`,
    headers,
    ...(payload !== undefined ? { payload } : {}),
  };
}
