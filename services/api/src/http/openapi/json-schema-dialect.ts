/**
 * `@anatine/zod-openapi` writes OpenAPI 3.0 schemas (`nullable`, boolean `exclusiveMinimum`);
 * the document declares OpenAPI 3.1, whose schemas are JSON Schema 2020-12. This rewrites the
 * 3.0-only keywords into their 2020-12 form, so that validators and generators read what zod
 * means. It returns new objects and leaves its input alone.
 */
export type JsonSchema = { [keyword: string]: unknown };

const isObject = (value: unknown): value is JsonSchema =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Keywords whose value is a schema, or a list or map of schemas. */
const schemaKeywords = ['items', 'not', 'additionalProperties', 'contains'] as const;
const schemaListKeywords = ['allOf', 'anyOf', 'oneOf', 'prefixItems'] as const;
const schemaMapKeywords = ['properties', 'patternProperties', '$defs'] as const;

export function toJsonSchema2020(input: JsonSchema): JsonSchema {
  const schema: JsonSchema = { ...input };
  for (const keyword of schemaKeywords) {
    const value = schema[keyword];
    if (isObject(value)) schema[keyword] = toJsonSchema2020(value);
  }
  for (const keyword of schemaListKeywords) {
    const value = schema[keyword];
    if (Array.isArray(value))
      schema[keyword] = value.map((item) => (isObject(item) ? toJsonSchema2020(item) : item));
  }
  for (const keyword of schemaMapKeywords) {
    const value = schema[keyword];
    if (isObject(value))
      schema[keyword] = Object.fromEntries(
        Object.entries(value).map(([name, item]) => [
          name,
          isObject(item) ? toJsonSchema2020(item) : item,
        ]),
      );
  }
  exclusiveBound(schema, 'exclusiveMinimum', 'minimum');
  exclusiveBound(schema, 'exclusiveMaximum', 'maximum');
  unionSemantics(schema);
  if ('example' in schema) {
    schema.examples = [schema.example];
    delete schema.example;
  }
  return nullable(schema);
}

/** 3.0: `{ minimum: 0, exclusiveMinimum: true }`; 2020-12: `{ exclusiveMinimum: 0 }`. */
function exclusiveBound(
  schema: JsonSchema,
  exclusive: 'exclusiveMinimum' | 'exclusiveMaximum',
  inclusive: 'minimum' | 'maximum',
): void {
  if (typeof schema[exclusive] === 'number') {
    // Both bounds as numbers (zod's `.int().positive()`): the stricter one says it all.
    if (typeof schema[inclusive] === 'number') {
      const stricter =
        exclusive === 'exclusiveMinimum'
          ? schema[exclusive] >= schema[inclusive]
          : schema[exclusive] <= schema[inclusive];
      delete schema[stricter ? inclusive : exclusive];
    }
    return;
  }
  if (typeof schema[exclusive] !== 'boolean') return;
  if (schema[exclusive] === true && typeof schema[inclusive] === 'number') {
    schema[exclusive] = schema[inclusive];
    delete schema[inclusive];
  } else {
    delete schema[exclusive];
  }
}

/** 3.0: `nullable: true`; 2020-12: `null` among the types (and the enum), or `anyOf` a null. */
function nullable(schema: JsonSchema): JsonSchema {
  if (!('nullable' in schema)) return schema;
  const { nullable: isNullable, ...rest } = schema;
  if (isNullable !== true) return rest;
  if (typeof rest.type === 'string' || Array.isArray(rest.type)) {
    const types = Array.isArray(rest.type) ? rest.type : [rest.type];
    if (!types.includes('null')) rest.type = [...types, 'null'];
    if (Array.isArray(rest.enum) && !rest.enum.includes(null)) rest.enum = [...rest.enum, null];
    return rest;
  }
  // No type of its own (a reference, a union): the value is that schema, or null.
  const { description, title, default: defaultValue, ...inner } = rest;
  // `z.unknown().nullable()`: the empty schema already accepts null.
  if (Object.keys(inner).length === 0) return rest;
  return {
    ...(title === undefined ? {} : { title }),
    ...(description === undefined ? {} : { description }),
    ...(defaultValue === undefined ? {} : { default: defaultValue }),
    anyOf: [inner, { type: 'null' }],
  };
}

/**
 * A zod union takes the first branch that matches, which is JSON Schema's `anyOf`: anatine's
 * `oneOf` would reject a value two branches accept (a date string is also a string). A
 * discriminated union's branches exclude each other by their tag, so they stay `oneOf`; its
 * OpenAPI `discriminator` is dropped, because it may only select `$ref` branches and every
 * branch here is inline (each names its tag as a one-value enum, which is what selects it).
 */
function unionSemantics(schema: JsonSchema): void {
  if ('discriminator' in schema) {
    delete schema.discriminator;
    return;
  }
  if (Array.isArray(schema.oneOf)) {
    schema.anyOf = schema.oneOf;
    delete schema.oneOf;
  }
}
