import { CallerFix, Frame } from '@locus/contract';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { zodIssues } from '../../http/errors';
import { parseCallerFix, parseFrameEnvelope } from './fast-fix';
import { checkFix } from './fix-validation';

/**
 * `parseCallerFix` is `CallerFix.safeParse` written out by hand: it must accept exactly what the
 * zod schema (the source of truth) accepts, and return the same fix. Every input below is given
 * to both.
 */

const numRuns = 5_000;
const now = Date.parse('2026-11-22T08:00:00Z');
const WEEK_MS = 7 * 24 * 3_600_000;

/** The next double above (or below) `x`: the numbers just inside and outside each bound. */
const words = new Float64Array(1);
const bits = new BigUint64Array(words.buffer);
function nextUp(x: number): number {
  if (Number.isNaN(x) || x === Infinity) return x;
  if (x === 0) return Number.MIN_VALUE;
  words[0] = x;
  bits[0] = x > 0 ? bits[0]! + 1n : bits[0]! - 1n;
  return words[0];
}
const nextDown = (x: number): number => -nextUp(-x);

/** Every bound in the schema (the integer ones too), and the numbers on either side of each. */
const bounds = [-180, -90, -1_000, 0, 1, 90, 180, 360, 100_000, 1_000_000, WEEK_MS];
const edges = bounds.flatMap((bound) => [
  bound,
  nextUp(bound),
  nextDown(bound),
  bound + 0.5,
  bound - 0.5,
  bound + 1,
  bound - 1,
]);

const keys = [
  'latitude',
  'longitude',
  'accuracy',
  'altitude',
  'altitudeAccuracy',
  'heading',
  'speed',
  'capturedAt',
  'n',
  'queuedMs',
] as const;

/** What no number field takes, and numbers at the edge of what they do. */
const hostileValues: unknown[] = [
  Number.NaN,
  Infinity,
  -Infinity,
  0,
  -0,
  1e308,
  -1e308,
  Number.MAX_VALUE,
  -Number.MAX_VALUE,
  Number.MIN_VALUE,
  -Number.MIN_VALUE,
  Number.EPSILON,
  0.5,
  1.5,
  -0.5,
  Number.MAX_SAFE_INTEGER,
  2 ** 53,
  2 ** 60,
  8.64e15,
  8.64e15 + 1,
  ...edges,
  '',
  '1',
  '38.9',
  'NaN',
  null,
  undefined,
  true,
  false,
  0n,
  1n,
  -1n,
  2n ** 64n,
  {},
  [],
  [1],
  Object.create(null),
  new Number(1),
  new String('1'),
  new Date(0),
  new Map(),
  { valueOf: () => 1 },
  Symbol('x'),
  () => 1,
];
const hostile = fc.oneof(
  { arbitrary: fc.constantFrom(...hostileValues), weight: 4 },
  { arbitrary: fc.double(), weight: 1 },
  { arbitrary: fc.integer(), weight: 1 },
  { arbitrary: fc.bigInt(), weight: 1 },
  { arbitrary: fc.string(), weight: 1 },
  { arbitrary: fc.anything(), weight: 1 },
);

/** A number in [min, max], often one of the two bounds or the number just inside either. */
const within = (min: number, max: number) =>
  fc.oneof(
    fc.double({ min, max, noNaN: true }),
    fc.constantFrom(min, max, nextUp(min), nextDown(max)),
  );
/** An integer in [min, max], including unsafe ones (zod 3's `.int()` takes any). */
const integer = (min: number, max: number) =>
  fc.oneof(
    fc.integer({ min: Math.max(min, -(2 ** 31)), max: Math.min(max, 2 ** 31 - 1) }),
    fc.constantFrom(
      ...[min, max, min + 1, max - 1, Number.MAX_SAFE_INTEGER, 2 ** 60, 1e308].filter(
        (value) => value >= min && value <= max,
      ),
    ),
  );
/** An optional field: left out (the record's doing), present but undefined, or `value`. */
const optional = <T>(value: fc.Arbitrary<T>) =>
  fc.oneof({ arbitrary: value, weight: 4 }, fc.constant(undefined));
const nullable = <T>(value: fc.Arbitrary<T>) =>
  fc.oneof({ arbitrary: value, weight: 4 }, fc.constant(null));

const validFix = fc.record(
  {
    latitude: within(-90, 90),
    longitude: within(-180, 180),
    accuracy: within(0, 1_000_000),
    altitude: optional(nullable(within(-1_000, 100_000))),
    altitudeAccuracy: optional(nullable(within(0, Number.MAX_VALUE))),
    heading: optional(nullable(within(0, 360))),
    speed: optional(nullable(within(0, Number.MAX_VALUE))),
    capturedAt: fc.oneof(
      fc.integer({ min: now - 86_400_000, max: now + 86_400_000 }),
      integer(1, Number.MAX_VALUE),
    ),
    n: optional(integer(1, Number.MAX_VALUE)),
    queuedMs: optional(fc.oneof(integer(0, WEEK_MS), fc.constant(-0))),
  },
  { requiredKeys: ['latitude', 'longitude', 'accuracy', 'capturedAt'] },
);

/** A valid fix with one to three fields set to a hostile value or left out. */
const mutatedFix = fc
  .tuple(
    validFix,
    fc.array(fc.tuple(fc.constantFrom(...keys), hostile, fc.boolean()), {
      minLength: 1,
      maxLength: 3,
    }),
  )
  .map(([fix, changes]) => {
    const changed: Record<string, unknown> = { ...fix };
    for (const [key, value, remove] of changes) {
      if (remove) delete changed[key];
      else changed[key] = value;
    }
    return changed;
  });

const oddKeys = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'valueOf',
  'hasOwnProperty',
  'then',
  'catch',
  '',
  '0',
  'length',
  'Latitude',
  'lat',
  ' latitude',
  'latitude ',
  'queuedMS',
];

/** A valid fix with one key more: own, from JSON text, not enumerable, a symbol, inherited. */
const extraKeyFix = fc
  .tuple(
    validFix,
    fc.oneof(fc.constantFrom(...oddKeys), fc.string()),
    hostile,
    fc.constantFrom('own', 'json', 'hidden', 'symbol', 'inherited'),
  )
  .map(([fix, key, value, how]): unknown => {
    switch (how) {
      case 'own': {
        const own: Record<string, unknown> = { ...fix };
        // defineProperty: `__proto__` becomes an own key, as JSON.parse makes it.
        Object.defineProperty(own, key, { value, enumerable: true, writable: true });
        return own;
      }
      case 'json':
        return JSON.parse(`${JSON.stringify(fix).slice(0, -1)},${JSON.stringify(key)}:1}`);
      case 'hidden': {
        const hidden: Record<string, unknown> = { ...fix };
        Object.defineProperty(hidden, key, { value, enumerable: false });
        return hidden;
      }
      case 'symbol':
        return { ...fix, [Symbol(key)]: value };
      default: {
        // Writable, so that a fix's own field of the same name (fc.string() gives "n") shadows it.
        const proto = {};
        Object.defineProperty(proto, key, { value, enumerable: true, writable: true });
        return Object.assign(Object.create(proto) as object, fix);
      }
    }
  });

class FixClass {
  constructor(fix: object) {
    Object.assign(this, fix);
  }
}
class Thenable extends FixClass {
  then(): void {}
  catch(): void {}
}
class HalfThenable extends FixClass {
  then(): void {}
}

/** A valid fix's fields on an object that is not a plain object. */
const oddObjectFix = fc
  .tuple(
    validFix,
    fc.constantFrom(
      'null prototype',
      'class',
      'thenable',
      'half thenable',
      'own then and catch',
      'inherited fields',
      'literal __proto__',
      'frozen',
      'getters',
    ),
  )
  .map(([fix, kind]): unknown => {
    switch (kind) {
      case 'null prototype':
        return Object.assign(Object.create(null) as object, fix);
      case 'class':
        return new FixClass(fix);
      case 'thenable':
        return new Thenable(fix);
      case 'half thenable':
        return new HalfThenable(fix);
      case 'own then and catch':
        return Object.assign(Object.create({ then() {}, catch() {} }) as object, fix);
      case 'inherited fields':
        return Object.create(fix) as object;
      case 'literal __proto__':
        return { __proto__: { capturedAt: 1, n: undefined }, latitude: 0, longitude: 0 };
      case 'frozen':
        return Object.freeze({ ...fix });
      default: {
        const getters = {};
        for (const [key, value] of Object.entries(fix)) {
          Object.defineProperty(getters, key, { get: () => value, enumerable: true });
        }
        return getters;
      }
    }
  });

/** Not an object zod takes: primitives, arrays, Dates, Maps, … (some with a fix's fields on). */
const notAnObject = fc.oneof(
  fc.anything(),
  fc.constantFrom(null, undefined, 'fix', 42, true, 1n, Symbol('fix'), [], new Date(), new Map()),
  fc
    .tuple(
      validFix,
      fc.constantFrom(
        (): object => [],
        (): object => new Date(0),
        (): object => new Map(),
        (): object => new Set(),
        (): object => () => 0,
        (): object => /fix/,
        (): object => new Error('fix'),
        (): object => Promise.resolve(),
        (): object => new Number(0),
        (): object => new String(''),
        (): object => new String('ab'),
      ),
    )
    .map(([fix, make]): unknown => Object.assign(make(), fix)),
);

/** Both accept or both refuse; when both accept, the same fix (keys, order, -0 and all). */
function expectAgreement(input: unknown): void {
  const zod = CallerFix.safeParse(input);
  const fast = parseCallerFix(input);
  expect(fast !== null).toBe(zod.success);
  if (!zod.success || fast === null) return;
  expect(fast).toStrictEqual(zod.data);
  expect(Object.keys(fast)).toStrictEqual(Object.keys(zod.data));
  for (const key of Object.keys(zod.data)) {
    const ours = (fast as Record<string, unknown>)[key];
    const theirs = (zod.data as Record<string, unknown>)[key];
    if (!Object.is(ours, theirs))
      throw new Error(`${key}: ${fc.stringify(ours)}, zod: ${fc.stringify(theirs)}`);
  }
  expect(Object.getPrototypeOf(fast)).toBe(Object.prototype);
  expect(fast).not.toBe(input);
}

describe('parseCallerFix agrees with CallerFix.safeParse', () => {
  it.each([
    ['valid fixes', validFix],
    ['fixes with fields set to hostile values or left out', mutatedFix],
    ['fixes with an extra key', extraKeyFix],
    ['fixes on objects that are not plain', oddObjectFix],
    ['things that are not objects', notAnObject],
  ] as [string, fc.Arbitrary<unknown>][])('on %s', (_name, inputs) => {
    fc.assert(fc.property(inputs, expectAgreement), { numRuns });
  });

  it('on every field set to every hostile value', () => {
    const good = { latitude: 1, longitude: 2, accuracy: 3, capturedAt: now };
    for (const key of keys) {
      for (const value of hostileValues) expectAgreement({ ...good, [key]: value });
    }
  });
});

describe('checkFix', () => {
  it('answers a refused fix with zod’s issues, word for word', () => {
    fc.assert(
      fc.property(fc.oneof(mutatedFix, extraKeyFix, notAnObject), (input) => {
        const zod = CallerFix.safeParse(input);
        if (zod.success) return;
        expect(checkFix(input, now)).toStrictEqual({ ok: false, issues: zodIssues(zod.error) });
      }),
      { numRuns: 1_000 },
    );
  });
});

describe('parseCallerFix at the bounds', () => {
  const good = { latitude: 38.9, longitude: -77.03, accuracy: 8, capturedAt: now };

  it('returns a new plain object with the schema’s keys in the schema’s order', () => {
    const input = { queuedMs: 5, n: 3, capturedAt: now, speed: null, longitude: 2, latitude: 1 };
    const fix = parseCallerFix({ ...input, accuracy: 4, altitude: 7 });
    expect(Object.keys(fix ?? {})).toEqual([
      'latitude',
      'longitude',
      'accuracy',
      'altitude',
      'speed',
      'capturedAt',
      'n',
      'queuedMs',
    ]);
  });

  it.each([
    ['latitude', 90, true],
    ['latitude', nextUp(90), false],
    ['latitude', -90, true],
    ['latitude', nextDown(-90), false],
    ['longitude', 180, true],
    ['longitude', nextUp(180), false],
    ['accuracy', 0, true],
    ['accuracy', -0, true],
    ['accuracy', -Number.MIN_VALUE, false],
    ['accuracy', 1_000_000, true],
    ['accuracy', nextUp(1_000_000), false],
    ['altitude', -1_000, true],
    ['altitude', nextDown(-1_000), false],
    ['altitude', 100_000, true],
    ['altitude', null, true],
    ['altitudeAccuracy', Number.MAX_VALUE, true],
    ['altitudeAccuracy', Infinity, false],
    ['heading', 360, true],
    ['heading', nextUp(360), false],
    ['speed', Number.NaN, false],
    ['capturedAt', 1, true],
    ['capturedAt', 0, false],
    ['capturedAt', -0, false],
    ['capturedAt', 1e308, true],
    ['capturedAt', 1.5, false],
    ['n', 1, true],
    ['n', 0, false],
    ['n', null, false],
    ['queuedMs', 0, true],
    ['queuedMs', -0, true],
    ['queuedMs', WEEK_MS, true],
    ['queuedMs', WEEK_MS + 1, false],
    ['queuedMs', '5', false],
  ])('%s = %s: %s', (key, value, accepted) => {
    const input = { ...good, [key]: value };
    expect(parseCallerFix(input) !== null).toBe(accepted);
    expectAgreement(input);
  });

  it('keeps an optional key present as undefined, and leaves out one that is absent', () => {
    expect(parseCallerFix({ ...good, n: undefined })).toStrictEqual({ ...good, n: undefined });
    expect(parseCallerFix(good)).not.toHaveProperty('n');
    expect(parseCallerFix({ ...good, latitude: undefined })).toBeNull();
  });

  it('refuses an own __proto__ key (as JSON.parse makes it) and a thenable', () => {
    const json = JSON.parse(`${JSON.stringify(good).slice(0, -1)},"__proto__":{}}`) as unknown;
    expect(parseCallerFix(json)).toBeNull();
    expect(parseCallerFix(new Thenable(good))).toBeNull();
    expect(parseCallerFix(new FixClass(good))).toStrictEqual(CallerFix.parse(new FixClass(good)));
  });

  it('keeps -0 as zod does', () => {
    expect(Object.is(parseCallerFix({ ...good, queuedMs: -0 })?.queuedMs, -0)).toBe(true);
  });
});

describe('parseFrameEnvelope', () => {
  // What a caller's socket gives it: whatever JSON.parse made of a frame.
  const json = fc.oneof(
    fc.jsonValue(),
    fc.record(
      {
        event: fc.oneof(
          fc.string({ maxLength: 70 }),
          fc.constantFrom('fix', 'x'.repeat(64), 'x'.repeat(65)),
          fc.jsonValue(),
        ),
        data: fc.jsonValue(),
        extra: fc.jsonValue(),
      },
      { requiredKeys: [] },
    ),
    fc
      .constantFrom(
        '{"__proto__":1,"event":"fix"}',
        '{"event":"fix","data":{}}',
        '{"data":null}',
        '[]',
        'null',
      )
      .map((text) => JSON.parse(text) as unknown),
  );

  it('accepts only what Frame.safeParse accepts, and returns the same envelope', () => {
    fc.assert(
      fc.property(json, (value) => {
        const fast = parseFrameEnvelope(value);
        const zod = Frame.safeParse(value);
        if (fast !== null) {
          expect(zod.success).toBe(true);
          expect(fast).toStrictEqual(zod.data);
        }
      }),
      { numRuns },
    );
  });

  it('takes the usual frame itself', () => {
    expect(parseFrameEnvelope(JSON.parse('{"event":"fix","data":{"latitude":1}}'))).toEqual({
      event: 'fix',
      data: { latitude: 1 },
    });
    expect(parseFrameEnvelope(JSON.parse('{"event":"prompt-shown"}'))).toEqual({
      event: 'prompt-shown',
    });
  });
});
