import fc from 'fast-check';

/** The part of JSON Schema 2020-12 the served OpenAPI document uses for parameters and bodies. */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minItems?: number;
  maxItems?: number;
  default?: unknown;
}

/**
 * Real values for a named field or parameter (ids of both teams, phone numbers the simulator
 * knows, the demo password…): returns undefined when the name has none. The generator mixes
 * them with values drawn from the schema, so that handlers find real rows, and rows of the
 * other team, as often as they find nothing.
 */
export type ValuePool = (name: string) => PooledValues | undefined;

export interface PooledValues {
  values: fc.Arbitrary<unknown>;
  /** Only these, never a value drawn from the schema (webhook addresses: nothing real is called). */
  exclusive?: boolean;
}

/** What a fuzzer tries first: values that broke parsers, databases and number handling before. */
export const hostileStrings = [
  '',
  '\u0000',
  'a\u0000b',
  '\uD800',
  '\u202E',
  '%00',
  '../../etc/passwd',
  "' or 1=1 --",
  '"; drop table users; --',
  '${jndi:ldap://x}',
  '<script>alert(1)</script>',
  '1e308',
  '-1',
  'NaN',
  'Infinity',
  'null',
  'true',
  '[]',
  '{}',
  '__proto__',
  'constructor',
  '00000000-0000-0000-0000-000000000000',
  'ffffffff-ffff-ffff-ffff-ffffffffffff',
  '00000000-0000-0000-0000-00000000000g',
  '0000-00-00',
  '9999-99-99',
  '2026-02-30',
  '+',
  '+0',
  '+999999999999999999999',
  'x'.repeat(300),
  'x'.repeat(20_000),
];
export const hostileNumbers = [
  0,
  -1,
  0.5,
  -0,
  2147483648,
  -2147483649,
  Number.MAX_SAFE_INTEGER + 2,
  1e308,
  -1e308,
  5e-324,
];

export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom<unknown>(...hostileStrings, ...hostileNumbers) },
  { weight: 1, arbitrary: fc.constantFrom<unknown>(null, true, false, [], {}, [null], { a: 1 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: fc.double() },
);

function types(schema: JsonSchema): string[] {
  if (Array.isArray(schema.type)) return schema.type;
  if (schema.type) return [schema.type];
  return [];
}

/** A string of the schema's length, from mostly printable text and some of any code point. */
function plainString(min: number, max: number): fc.Arbitrary<string> {
  const cap = Math.max(min, Math.min(max, 60));
  return fc.oneof(
    { weight: 3, arbitrary: fc.string({ minLength: min, maxLength: cap, unit: 'grapheme-ascii' }) },
    { weight: 1, arbitrary: fc.string({ minLength: min, maxLength: cap, unit: 'grapheme' }) },
    { weight: 1, arbitrary: fc.string({ minLength: min, maxLength: cap, unit: 'binary' }) },
  );
}

function stringOf(schema: JsonSchema): fc.Arbitrary<string> {
  const min = schema.minLength ?? 0;
  const max = schema.maxLength ?? 200;
  const fits = (text: string) => text.length >= min && text.length <= max;
  switch (schema.format) {
    case 'uuid':
      return fc.uuid();
    case 'email':
      return fc.emailAddress().filter(fits);
    case 'date-time':
      return fc
        .date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
        .map((date) => date.toISOString());
    case 'uri':
      return fc.webUrl({ validSchemes: ['https'] }).filter(fits);
    default:
  }
  if (schema.pattern) {
    const pattern = new RegExp(schema.pattern);
    return fc.stringMatching(pattern).filter(fits);
  }
  return plainString(min, max);
}

function numberOf(schema: JsonSchema, integer: boolean): fc.Arbitrary<number> {
  const low =
    schema.exclusiveMinimum !== undefined
      ? schema.exclusiveMinimum + (integer ? 1 : 1e-9)
      : schema.minimum;
  const high =
    schema.exclusiveMaximum !== undefined
      ? schema.exclusiveMaximum - (integer ? 1 : 1e-9)
      : schema.maximum;
  if (integer)
    return fc.integer({
      min: Math.ceil(low ?? -2_147_483_648),
      max: Math.floor(high ?? 2_147_483_647),
    });
  return fc.double({
    min: low ?? -1e9,
    max: high ?? 1e9,
    noNaN: true,
    noDefaultInfinity: true,
  });
}

/**
 * Values valid by the schema (as far as a JSON schema can say: a phone number's rules live in
 * the handler's zod refinement, which the pools cover). `name` is the field or parameter name,
 * looked up in the pool first.
 */
export function validValue(
  schema: JsonSchema,
  pool: ValuePool,
  name = '',
  depth = 0,
): fc.Arbitrary<unknown> {
  const pooled = name ? pool(name) : undefined;
  if (pooled?.exclusive) return pooled.values;
  const drawn = fromSchema(schema, pool, name, depth);
  if (!pooled) return drawn;
  return fc.oneof({ weight: 3, arbitrary: pooled.values }, { weight: 1, arbitrary: drawn });
}

function fromSchema(
  schema: JsonSchema,
  pool: ValuePool,
  name: string,
  depth: number,
): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum && schema.enum.length > 0) return fc.constantFrom(...schema.enum);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives && alternatives.length > 0)
    return fc.oneof(...alternatives.map((part) => validValue(part, pool, name, depth)));
  if (schema.allOf && schema.allOf.length > 0)
    return validValue(Object.assign({}, ...schema.allOf) as JsonSchema, pool, name, depth);
  const kinds = types(schema);
  if (kinds.length > 1)
    return fc.oneof(
      ...kinds.map((kind) => validValue({ ...schema, type: kind }, pool, name, depth)),
    );
  switch (kinds[0]) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return numberOf(schema, true);
    case 'number':
      return numberOf(schema, false);
    case 'string':
      return stringOf(schema);
    case 'array': {
      const itemSchema = schema.items ?? {};
      const min = schema.minItems ?? 0;
      const max = Math.max(min, Math.min(schema.maxItems ?? 4, 4));
      return fc.array(validValue(itemSchema, pool, name, depth + 1), {
        minLength: min,
        maxLength: max,
      });
    }
    case 'object': {
      const properties = schema.properties ?? {};
      const model = Object.fromEntries(
        Object.entries(properties).map(([key, part]) => [
          key,
          validValue(part, pool, key, depth + 1),
        ]),
      );
      return fc.record(model, { requiredKeys: schema.required ?? [] });
    }
    default:
      // No type (a free-form path segment, say): a pooled value, or any short text.
      return plainString(1, 40);
  }
}

/** One way to break a valid body: the checks a validator and a handler must both survive. */
export type BodyMutation =
  | { kind: 'drop-required' }
  | { kind: 'hostile-field'; value: unknown }
  | { kind: 'unknown-field'; value: unknown }
  | { kind: 'replace-body'; value: unknown }
  | { kind: 'prototype-keys' }
  | { kind: 'deep-nesting'; depth: number };

export const bodyMutation: fc.Arbitrary<BodyMutation> = fc.oneof(
  fc.constant<BodyMutation>({ kind: 'drop-required' }),
  hostileValue.map<BodyMutation>((value) => ({ kind: 'hostile-field', value })),
  hostileValue.map<BodyMutation>((value) => ({ kind: 'unknown-field', value })),
  hostileValue.map<BodyMutation>((value) => ({ kind: 'replace-body', value })),
  fc.constant<BodyMutation>({ kind: 'prototype-keys' }),
  fc
    .integer({ min: 50, max: 5000 })
    .map<BodyMutation>((depth) => ({ kind: 'deep-nesting', depth })),
);

/** Applies a mutation to a body generated valid; `pick` chooses which field, deterministically. */
export function mutateBody(
  body: unknown,
  schema: JsonSchema | undefined,
  mutation: BodyMutation,
  pick: number,
): unknown {
  const record =
    typeof body === 'object' && body !== null && !Array.isArray(body)
      ? { ...(body as Record<string, unknown>) }
      : {};
  const keys = Object.keys(schema?.properties ?? {});
  const chosen = keys.length > 0 ? keys[pick % keys.length]! : 'id';
  switch (mutation.kind) {
    case 'drop-required': {
      const required = schema?.required ?? [];
      if (required.length === 0) return [];
      delete record[required[pick % required.length]!];
      return record;
    }
    case 'hostile-field':
      return { ...record, [chosen]: mutation.value };
    case 'unknown-field':
      return { ...record, [`x${pick % 7}`]: mutation.value };
    case 'replace-body':
      return mutation.value;
    case 'prototype-keys':
      return JSON.parse(
        `{"__proto__":{"isAdmin":true,"teamId":"x"},"constructor":{"prototype":{"polluted":1}},${JSON.stringify(
          chosen,
        )}:{"__proto__":null}}`,
      ) as unknown;
    case 'deep-nesting': {
      // The request builder writes the deep ones out as text (JSON.stringify recurses).
      let nested: unknown = 1;
      for (let level = 0; level < Math.min(mutation.depth, 100); level += 1)
        nested = { [chosen]: nested };
      return nested;
    }
  }
}
