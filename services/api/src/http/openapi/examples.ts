import type { JsonSchema } from './json-schema-dialect';

/**
 * An example value for a schema, built from the schema itself so that it is valid by
 * construction and stays valid when the contract changes: partners see realistic values (a phone
 * number where the field is a phone number), and `redocly lint` checks every example against its
 * schema. Schemas are JSON Schema 2020-12 (after `toJsonSchema2020`).
 */
export function exampleOf(
  schema: JsonSchema,
  components: Record<string, JsonSchema>,
  name = '',
  depth = 0,
): unknown {
  if (depth > 12) return null;
  const next = (inner: unknown, innerName = name) =>
    exampleOf(isSchema(inner) ? inner : {}, components, innerName, depth + 1);

  if (typeof schema.$ref === 'string') {
    const target = components[schema.$ref.replace('#/components/schemas/', '')];
    return target ? next(target) : null;
  }
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if ('const' in schema) return schema.const;
  if (schema.default !== undefined) return schema.default;
  if (Array.isArray(schema.enum)) return schema.enum.find((value) => value !== null) ?? null;
  for (const keyword of ['oneOf', 'anyOf'] as const) {
    const branches = schema[keyword];
    if (Array.isArray(branches)) {
      const candidates = branches.filter((item) => isSchema(item) && item.type !== 'null');
      // The most specific branch reads best: a date-time over any string.
      const branch = candidates.find((item) => isSpecific(item)) ?? candidates[0];
      return branch ? next(branch) : null;
    }
  }
  if (Array.isArray(schema.allOf)) {
    return Object.assign({}, ...schema.allOf.map((part) => next(part) as object));
  }

  switch (typeOf(schema)) {
    case 'object':
      return objectExample(schema, next);
    case 'array': {
      const count = Math.max(1, numberOr(schema.minItems, 1));
      return Array.from({ length: count }, () => next(schema.items, singular(name)));
    }
    case 'string':
      return stringExample(schema, name);
    case 'integer':
      return numberExample(schema, name, true);
    case 'number':
      return numberExample(schema, name, false);
    case 'boolean':
      return booleanExample(name);
    case 'null':
      return null;
    default:
      return null;
  }
}

const isSchema = (value: unknown): value is JsonSchema =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const isSpecific = (schema: unknown) =>
  isSchema(schema) && ('format' in schema || 'enum' in schema || 'pattern' in schema);

const numberOr = (value: unknown, fallback: number) =>
  typeof value === 'number' ? value : fallback;

function typeOf(schema: JsonSchema): string | undefined {
  if (typeof schema.type === 'string') return schema.type;
  if (Array.isArray(schema.type)) return schema.type.find((type) => type !== 'null') as string;
  if (isSchema(schema.properties)) return 'object';
  return undefined;
}

function singular(name: string): string {
  return name.endsWith('ies')
    ? `${name.slice(0, -3)}y`
    : name.endsWith('s')
      ? name.slice(0, -1)
      : name;
}

function objectExample(schema: JsonSchema, next: (inner: unknown, name: string) => unknown) {
  const properties = isSchema(schema.properties) ? schema.properties : {};
  const example: Record<string, unknown> = {};
  for (const [property, inner] of Object.entries(properties)) {
    example[property] = next(inner, property);
  }
  // A map (`z.record`): one entry shows its shape.
  if (Object.keys(properties).length === 0 && isSchema(schema.additionalProperties)) {
    example.key = next(schema.additionalProperties, 'value');
  }
  return example;
}

/** The contract's patterns, each with a value that matches it. */
const patternExamples: Record<string, string> = {
  '^[A-Za-z0-9_-]{43}$': 'Qm9vdHN0cmFwLWxvY3VzLWV4YW1wbGUtdG9rZW4tMDA',
  '^\\d{6}$': '492817',
  '^[A-Za-z0-9_-]*={0,2}$': 'bG9jdXMtZXhhbXBsZQ',
  '^[2-9A-HJ-NP-Z]{4}$': '7KQ3',
  '^\\d{4}-\\d{2}-\\d{2}$': '2026-11-28',
  '^\\d{4}-\\d{2}$': '2026-11',
  '^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\\.)+[a-z]{2,63}$': 'county911.example.gov',
  // A partner API key (issue 15): made up, never a real one.
  '^lk_[A-Za-z0-9]{40}$': 'lk_4fK9x2QaExampleOnlyNotARealKey0000000000',
  // A webhook signing secret (Standard Webhooks): made up too.
  '^whsec_[A-Za-z0-9+/]{43}=$': 'whsec_ExampleOnlyNotARealSecretMadeUpForTheDocs00=',
  // A photo's or recording's SHA-256 (issue 19), and what MediaRecorder records.
  '^[0-9a-f]{64}$': '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
  '^video\\/webm(;.*)?$': 'video/webm;codecs=vp8',
};

const formatExamples: Record<string, string> = {
  uuid: '3f1e2d4c-5b6a-4789-9abc-def012345678',
  'date-time': '2026-11-28T15:04:05.000Z',
  date: '2026-11-28',
  time: '15:04:05',
  email: 'dispatcher@county911.example.gov',
  uri: 'https://locus.example.org/l/Qm9vdHN0cmFw',
  url: 'https://locus.example.org/l/Qm9vdHN0cmFw',
  ipv4: '192.0.2.10',
};

/** Readable values for the contract's common field names. */
const namedStrings: [RegExp, string][] = [
  [/phone|^from$|^to$|number$/i, '+12025550143'],
  [/^firstName$/i, 'Alex'],
  [/^lastName$/i, 'Rivera'],
  [/fullName|displayName|^name$|Name$/, 'Demo County 911'],
  [/email/i, 'dispatcher@county911.example.gov'],
  [/password/i, 'correct-horse-battery-staple'],
  [/token|ticket|secret/i, 'Qm9vdHN0cmFwLWxvY3VzLWV4YW1wbGUtdG9rZW4tMDA'],
  [/code$/i, '492817'],
  [/^(message|text|body|content|original|translated)$/i, 'Help is on the way.'],
  [/^state$/i, 'VA'],
  [/^timeZone$/, 'America/New_York'],
  [/reason/i, 'Shift change'],
  [/^(search|searchTerm|q)$/i, 'county'],
  [/version/i, '1.0.0'],
];

function stringExample(schema: JsonSchema, name: string): string {
  const pattern = typeof schema.pattern === 'string' ? patternExamples[schema.pattern] : undefined;
  const format = typeof schema.format === 'string' ? formatExamples[schema.format] : undefined;
  const named = namedStrings.find(([test]) => test.test(name))?.[1];
  let value = pattern ?? format ?? named ?? 'example';
  if (pattern ?? format) return value;
  const min = numberOr(schema.minLength, 0);
  const max = numberOr(schema.maxLength, Number.POSITIVE_INFINITY);
  while (value.length < min) value += 'x';
  return value.slice(0, max);
}

const namedNumbers: [RegExp, number][] = [
  [/^lat(itude)?$/i, 38.8895],
  [/^(lng|lon|longitude)$/i, -77.0353],
  [/accuracy|radius|uncertainty/i, 12],
  [/seq|sequence/i, 42],
  [/page/i, 1],
  [/seconds/i, 900],
  [/ms$/i, 250],
];

function numberExample(schema: JsonSchema, name: string, integer: boolean): number {
  const named = namedNumbers.find(([test]) => test.test(name))?.[1];
  let value = named ?? 1;
  const minimum = numberOr(schema.minimum, Number.NEGATIVE_INFINITY);
  const exclusiveMinimum = numberOr(schema.exclusiveMinimum, Number.NEGATIVE_INFINITY);
  const maximum = numberOr(schema.maximum, Number.POSITIVE_INFINITY);
  const exclusiveMaximum = numberOr(schema.exclusiveMaximum, Number.POSITIVE_INFINITY);
  if (value < minimum) value = minimum;
  if (value <= exclusiveMinimum) value = exclusiveMinimum + 1;
  if (value > maximum) value = maximum;
  if (value >= exclusiveMaximum) value = exclusiveMaximum - 1;
  return integer ? Math.round(value) : value;
}

function booleanExample(name: string): boolean {
  return !/^(is)?(disabled|locked|deleted|revoked|expired)/i.test(name);
}
