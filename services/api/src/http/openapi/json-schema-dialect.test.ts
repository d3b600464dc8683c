import { generateSchema } from '@anatine/zod-openapi';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { toJsonSchema2020, type JsonSchema } from './json-schema-dialect';

const converted = (schema: z.ZodTypeAny) =>
  toJsonSchema2020(generateSchema(schema) as unknown as JsonSchema);

describe('OpenAPI 3.0 schemas as JSON Schema 2020-12', () => {
  it('writes exclusive bounds as numbers, keeping only the stricter bound', () => {
    expect(converted(z.number().int().positive())).toEqual({
      type: 'integer',
      exclusiveMinimum: 0,
    });
    expect(converted(z.number().lt(10))).toEqual({ type: 'number', exclusiveMaximum: 10 });
    expect(converted(z.number().min(1).max(720))).toEqual({
      type: 'number',
      minimum: 1,
      maximum: 720,
    });
  });

  it('puts null among the types, and into an enum', () => {
    expect(converted(z.string().nullable())).toEqual({ type: ['string', 'null'] });
    expect(converted(z.enum(['en', 'es']).nullable())).toEqual({
      type: ['string', 'null'],
      enum: ['en', 'es', null],
    });
  });

  it('makes a nullable union or object accept null, and leaves the empty schema alone', () => {
    const union = converted(z.union([z.string(), z.number()]).nullable());
    expect(union).toEqual({
      anyOf: [{ anyOf: [{ type: 'string' }, { type: 'number' }] }, { type: 'null' }],
    });
    expect(converted(z.unknown().nullable())).toEqual({});
  });

  it('reads a zod union as anyOf (the first branch that matches), a discriminated one as oneOf', () => {
    expect(converted(z.union([z.string(), z.string().datetime()]))).toEqual({
      anyOf: [{ type: 'string' }, { type: 'string', format: 'date-time' }],
    });
    const tagged = converted(
      z.discriminatedUnion('kind', [
        z.object({ kind: z.literal('a') }),
        z.object({ kind: z.literal('b'), b: z.string() }),
      ]),
    );
    expect(tagged).not.toHaveProperty('discriminator');
    expect(tagged.oneOf).toHaveLength(2);
  });

  it('converts nested schemas and leaves its input unchanged', () => {
    const input = generateSchema(
      z.object({ items: z.array(z.object({ n: z.number().positive().nullable() })) }),
    ) as unknown as JsonSchema;
    const before = JSON.stringify(input);
    const output = toJsonSchema2020(input);
    expect(JSON.stringify(input)).toBe(before);
    expect(output).toMatchObject({
      properties: {
        items: { items: { properties: { n: { type: ['number', 'null'], exclusiveMinimum: 0 } } } },
      },
    });
  });
});
