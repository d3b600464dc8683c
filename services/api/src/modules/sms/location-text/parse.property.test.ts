import { formatLocationText, textLocationFormat } from '@locus/contract';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseTextLocation, type ParsedTextLocation, type TextLocationFormat } from './parse';

/**
 * Open Location Code's reference encoder, in integers (pluscodes' own encoder drifts by a cell
 * in floating point, e.g. at 89.999°): the codes the property feeds the parser are right.
 */
function encode(point: { latitude: number; longitude: number }, length: number): string {
  const alphabet = '23456789CFGHJMPQRVWX';
  let lat = Math.floor((Math.min(point.latitude, 90 - 1e-9) + 90) * 25_000_000);
  let lon = Math.floor(((((point.longitude + 180) % 360) + 360) % 360) * 8_192_000);
  let code = '';
  for (let i = 0; i < 5; i++) {
    code = alphabet.charAt((lat % 5) * 4 + (lon % 4)) + code;
    lat = Math.floor(lat / 5);
    lon = Math.floor(lon / 4);
  }
  for (let i = 0; i < 5; i++) {
    code = alphabet.charAt(lat % 20) + alphabet.charAt(lon % 20) + code;
    lat = Math.floor(lat / 20);
    lon = Math.floor(lon / 20);
  }
  return `${code.slice(0, 8)}+${code.slice(8, length)}`;
}

const numRuns = 300;
const now = Date.UTC(2025, 5, 1, 14, 5, 0);
const day = 86_400_000;

// Words of each language, to wrap a location in. Chinese is written without spaces.
const words: Record<'en' | 'es' | 'fr' | 'zh', readonly string[]> = {
  en: 'help I am here please come quickly car crash near the bridge two people hurt my location is thanks 911'.split(
    ' ',
  ),
  es: 'ayuda estoy aquí por favor vengan rápido accidente cerca del puente dos heridos mi ubicación es gracias y o señal'.split(
    ' ',
  ),
  fr: 'au secours je suis là venez vite accident près du pont deux blessés ma position est merci à côté voiture'.split(
    ' ',
  ),
  zh: '救命 我 在 这里 请 快来 车祸 桥 附近 两个人 受伤 我的位置 是 谢谢 ， 。 ！ ：'.split(' '),
};
type Language = keyof typeof words;
const languageList = Object.keys(words) as Language[];

const phrase = (language: Language) =>
  fc
    .array(fc.constantFrom(...words[language]), { maxLength: 6 })
    .map((list) => list.join(language === 'zh' ? '' : ' '));

/** `location` with words of `language` before and after (separated by a space or punctuation). */
const wrapped = (location: string) =>
  fc.constantFrom(...languageList).chain((language) =>
    fc
      .tuple(
        phrase(language),
        phrase(language),
        // "911:38.1,2.2" is not read (a time, "12:30.5", looks the same): no bare colon after
        // the words of en/es/fr, whose lists have numbers.
        fc.constantFrom(...(language === 'zh' ? ['', '：', ':'] : [' ', ': ', ' : ', ' - ', '\n'])),
      )
      .map(([before, after, separator]) =>
        language === 'zh'
          ? `${before}${separator}${location}${after}`
          : `${before}${separator}${location} ${after}`,
      ),
  );

const latitude = fc.double({ min: -90, max: 90, noNaN: true });
const longitude = fc.double({ min: -180, max: 180, noNaN: true });

const angularGap = (a: number, b: number) => {
  const gap = Math.abs(a - b) % 360;
  return Math.min(gap, 360 - gap);
};

function expectNear(
  result: ParsedTextLocation,
  expected: { latitude: number; longitude: number; format: TextLocationFormat },
  tolerance: number,
) {
  expect(result.kind, JSON.stringify(result)).toBe('location');
  if (result.kind !== 'location') return;
  expect(result.format).toBe(expected.format);
  expect(Math.abs(result.latitude - expected.latitude)).toBeLessThanOrEqual(tolerance);
  expect(angularGap(result.longitude, expected.longitude)).toBeLessThanOrEqual(tolerance);
}

describe('property: the page LOC text round-trips', () => {
  const fix = fc.record({
    latitude,
    longitude,
    accuracy: fc.double({ min: 0, max: textLocationFormat.maxAccuracyM, noNaN: true }),
    // Within 12 hours of now, either way (the parser takes the nearest such time of day).
    capturedAt: fc.integer({ min: now - day / 2 + 1_000, max: now + day / 2 - 1_000 }),
  });
  const code = fc.string({
    unit: fc.constantFrom(...textLocationFormat.codeAlphabet),
    minLength: textLocationFormat.codeLength,
    maxLength: textLocationFormat.codeLength,
  });

  type Fix = { latitude: number; longitude: number; accuracy: number; capturedAt: number };

  const expectFix = (result: ParsedTextLocation, f: Fix, c: string) => {
    expect(result).toMatchObject({ kind: 'location', format: 'loc', code: c });
    if (result.kind !== 'location') return;
    expect(Math.abs(result.latitude - f.latitude)).toBeLessThanOrEqual(0.000005 + 1e-9);
    expect(Math.abs(result.longitude - f.longitude)).toBeLessThanOrEqual(0.000005 + 1e-9);
    expect(result.accuracyM).toBe(
      Math.min(textLocationFormat.maxAccuracyM, Math.round(f.accuracy)),
    );
    expect(result.capturedAt).toBe(Math.floor(f.capturedAt / 1000) * 1000);
  };

  it('on its own', () => {
    fc.assert(
      fc.property(fix, code, (f, c) => {
        expectFix(parseTextLocation(formatLocationText(f, c), { now, reference: null }), f, c);
      }),
      { numRuns },
    );
  });

  it('among words of each language', () => {
    fc.assert(
      fc.property(
        fix.chain((f) =>
          code.chain((c) => wrapped(formatLocationText(f, c)).map((text) => ({ f, c, text }))),
        ),
        ({ f, c, text }) => {
          expectFix(parseTextLocation(text, { now, reference: null }), f, c);
        },
      ),
      { numRuns },
    );
  });
});

interface Case {
  text: string;
  latitude: number;
  longitude: number;
  format: TextLocationFormat;
  tolerance: number;
  reference?: { latitude: number; longitude: number };
}

const point = fc.record({ latitude, longitude });
const six = (n: number) => n.toFixed(6);
const micro = 1e-6 + 1e-12;

/** Google's copy of a position: 38°53'51.7"N 77°02'11.4"W (a tenth of a second: ~3 m). */
function dms(value: number, positive: string, negative: string): string {
  const tenths = Math.round(Math.abs(value) * 36_000);
  const degrees = Math.floor(tenths / 36_000);
  const minutes = Math.floor((tenths % 36_000) / 600);
  const seconds = ((tenths % 600) / 10).toFixed(1).padStart(4, '0');
  return `${degrees}°${String(minutes).padStart(2, '0')}'${seconds}"${value < 0 ? negative : positive}`;
}
const dmsTolerance = 1 / 36_000 + 1e-9;

const viewportOf = (p: { latitude: number; longitude: number }) =>
  `${six(p.latitude / 2)},${six(p.longitude / 2)}`;

const cases = (
  format: TextLocationFormat,
  tolerance: number,
  texts: (p: { latitude: number; longitude: number }) => string[],
): fc.Arbitrary<Case> =>
  point.chain((p) =>
    fc.constantFrom(...texts(p)).map((text) => ({ text, ...p, format, tolerance })),
  );

const formatCases: Record<string, fc.Arbitrary<Case>> = {
  'geo:': cases('geo-uri', micro, (p) => {
    const at = `${six(p.latitude)},${six(p.longitude)}`;
    const android = `geo:0,0?q=${at}(Pin)`;
    // geo:0,0 alone is Android's link with no position of its own (see the examples).
    if (Number(six(p.latitude)) === 0 && Number(six(p.longitude)) === 0) return [android];
    return [`geo:${at}`, `geo:${at},120.5`, `geo:${at};u=35`, android];
  }),
  'Google Maps': cases('google-maps', micro, (p) => {
    const at = `${six(p.latitude)},${six(p.longitude)}`;
    return [
      `https://maps.google.com/?q=${at}`,
      `https://www.google.com/maps?q=${at}`,
      `https://www.google.com/maps/search/?api=1&query=${at.replace(',', '%2C')}`,
      `https://www.google.com/maps/@${at},15z`,
      `https://www.google.com/maps/place/Some+Place/@${at},17z/`,
      `https://www.google.com/maps/place/Some+Place/@${viewportOf(p)},17z/data=!3m1!4b1!4m6!3m5!1s0x0:0x0!8m2!3d${six(p.latitude)}!4d${six(p.longitude)}!16z?entry=ttu`,
    ];
  }),
  'Google Maps (DMS place)': cases('google-maps', dmsTolerance, (p) => {
    const place = `${dms(p.latitude, 'N', 'S')} ${dms(p.longitude, 'E', 'W')}`;
    return [
      `https://www.google.com/maps/place/${place.replace(' ', '+')}/@${viewportOf(p)},17z`,
      `https://www.google.com/maps/place/${encodeURIComponent(place).replaceAll('%20', '+')}/@${viewportOf(p)},17z`,
    ];
  }),
  'Apple Maps': cases('apple-maps', micro, (p) => {
    const at = `${six(p.latitude)},${six(p.longitude)}`;
    return [
      `https://maps.apple.com/?ll=${at}&q=Pin`,
      `https://maps.apple.com/?q=${at}`,
      `https://maps.apple.com/?sll=${viewportOf(p)}&ll=${at}`,
      `https://maps.apple.com/place?coordinate=${at}&name=Marked%20Location`,
    ];
  }),
  OpenStreetMap: cases('openstreetmap', micro, (p) => [
    `https://www.openstreetmap.org/?mlat=${six(p.latitude)}&mlon=${six(p.longitude)}#map=17/${viewportOf(p).replace(',', '/')}`,
    `https://www.openstreetmap.org/#map=17/${six(p.latitude)}/${six(p.longitude)}`,
    `https://osm.org/#map=15/${six(p.latitude)}/${six(p.longitude)}`,
  ]),
  'plain coordinates': cases('coordinates', micro, (p) => [
    `${six(p.latitude)}, ${six(p.longitude)}`,
    `${six(p.latitude)},${six(p.longitude)}`,
    `${six(p.latitude)} ${six(p.longitude)}`,
    `${Math.abs(p.latitude).toFixed(6)} ${p.latitude < 0 ? 'S' : 'N'}, ${Math.abs(p.longitude).toFixed(6)} ${p.longitude < 0 ? 'W' : 'E'}`,
    `${p.latitude < 0 ? 'S' : 'N'}${Math.abs(p.latitude).toFixed(6)} ${p.longitude < 0 ? 'W' : 'E'}${Math.abs(p.longitude).toFixed(6)}`,
  ]),
  'DMS coordinates': cases('coordinates', dmsTolerance, (p) => [
    `${dms(p.latitude, 'N', 'S')} ${dms(p.longitude, 'E', 'W')}`,
    `${dms(p.latitude, 'N', 'S')}, ${dms(p.longitude, 'E', 'W')}`
      .replaceAll("'", '′')
      .replaceAll('"', '″'),
  ]),
  'full Plus Codes': fc
    .record({
      latitude: fc.double({ min: -90, max: 89.999_999, noNaN: true }),
      longitude: fc.double({ min: -180, max: 179.999_999, noNaN: true }),
      length: fc.constantFrom(10, 11),
      lower: fc.boolean(),
    })
    .map(({ latitude: lat, longitude: lon, length, lower }) => {
      const code = encode({ latitude: lat, longitude: lon }, length);
      return {
        text: lower ? code.toLowerCase() : code,
        latitude: lat,
        longitude: lon,
        format: 'plus-code' as const,
        tolerance: length === 10 ? 0.000125 : 0.00004,
      };
    }),
  'short Plus Codes (reference nearby)': fc
    .record({
      latitude: fc.double({ min: -80, max: 80, noNaN: true }),
      longitude: fc.double({ min: -180, max: 179.999, noNaN: true }),
      dropped: fc.constantFrom(2, 4),
      north: fc.double({ min: -0.4, max: 0.4, noNaN: true }),
      east: fc.double({ min: -0.4, max: 0.4, noNaN: true }),
      locality: fc.constantFrom('', ' Washington, DC', ' Madrid', ' Paris', ' 北京'),
    })
    .map(({ latitude: lat, longitude: lon, dropped, north, east, locality }) => {
      const code = encode({ latitude: lat, longitude: lon }, 10).slice(dropped);
      // A reference up to 0.4 of the short code's cell away (1° or 20°).
      const cell = dropped === 4 ? 1 : 20;
      let refLongitude = lon + east * cell;
      if (refLongitude > 180) refLongitude -= 360;
      if (refLongitude < -180) refLongitude += 360;
      return {
        text: `${code}${locality}`,
        latitude: lat,
        longitude: lon,
        format: 'plus-code' as const,
        tolerance: 0.000125,
        reference: { latitude: lat + north * cell, longitude: refLongitude },
      };
    })
    // Codes of digits only are not read as short codes ("2345+67" is arithmetic).
    .filter(({ text }) => /[CFGHJMPQRVWX]/.test(text.split('+')[0] ?? '')),
};

describe('property: each format round-trips among words of each language', () => {
  for (const [name, arbitrary] of Object.entries(formatCases))
    it(name, () => {
      fc.assert(
        fc.property(
          arbitrary.chain((c) => wrapped(c.text).map((text) => ({ ...c, text }))),
          (c) => {
            const result = parseTextLocation(c.text, { now, reference: c.reference ?? null });
            expectNear(result, c, c.tolerance);
          },
        ),
        { numRuns },
      );
    });
});

describe('property: out-of-range numbers are invalid, never clamped', () => {
  const outside = (limit: number) =>
    fc.oneof(
      fc.double({ min: limit + 0.001, max: 9_999, noNaN: true }),
      fc.double({ min: -9_999, max: -limit - 0.001, noNaN: true }),
    );
  it('LOC and geo:', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.tuple(outside(90), longitude).map(([lat, lon]) => ({ lat, lon, bad: 'Latitude' })),
          fc.tuple(latitude, outside(180)).map(([lat, lon]) => ({ lat, lon, bad: 'Longitude' })),
        ),
        fc.constantFrom('LOC ', 'geo:'),
        ({ lat, lon, bad }, prefix) => {
          const result = parseTextLocation(`${prefix}${lat.toFixed(5)},${lon.toFixed(5)}`, {
            now,
            reference: null,
          });
          expect(result).toMatchObject({ kind: 'invalid' });
          if (result.kind === 'invalid')
            expect(result.reason).toMatch(new RegExp(`^${bad} .* is out of range\\.$`));
        },
      ),
      { numRuns },
    );
  });
});

function expectSane(result: ParsedTextLocation) {
  switch (result.kind) {
    case 'none':
      return;
    case 'invalid':
      expect(typeof result.reason).toBe('string');
      expect(result.reason.length).toBeGreaterThan(0);
      return;
    case 'location':
      expect(Number.isFinite(result.latitude)).toBe(true);
      expect(Number.isFinite(result.longitude)).toBe(true);
      expect(Math.abs(result.latitude)).toBeLessThanOrEqual(90);
      expect(Math.abs(result.longitude)).toBeLessThanOrEqual(180);
      if (result.accuracyM !== null) {
        expect(Number.isFinite(result.accuracyM)).toBe(true);
        expect(result.accuracyM).toBeGreaterThanOrEqual(0);
      }
      if (result.capturedAt !== null) expect(Number.isFinite(result.capturedAt)).toBe(true);
      if (result.code !== null) expect(result.code).toMatch(/^[0-9A-Z]{4}$/);
  }
}

describe('property: any text', () => {
  const tokens = fc.constantFrom(
    'LOC',
    'loc ',
    'geo:',
    'GEO:0,0?q=',
    '+',
    '-',
    '+-',
    '±',
    '~',
    '°',
    "'",
    '"',
    '′',
    '″',
    ',',
    '，',
    '.',
    '。',
    ' ',
    '\u00a0',
    '#',
    'm',
    'Z',
    ':',
    'N',
    'S',
    'E',
    'W',
    'O',
    '北纬',
    '西经',
    '0',
    '1',
    '9',
    '12',
    '90',
    '180',
    '181',
    '38.8977',
    '-77.0365',
    '999.99999',
    '1e308',
    'NaN',
    'Infinity',
    '14:02:10Z',
    '#K7Q2',
    'u=',
    ';',
    '?',
    '&',
    '=',
    '@',
    '!3d',
    '!4d',
    '%2C',
    '%',
    '%E2%80%B3',
    'https://',
    'maps.google.com/?q=',
    'www.google.com/maps/place/',
    'maps.apple.com/?ll=',
    'openstreetmap.org/?mlat=',
    '&mlon=',
    '#map=17/',
    '/',
    'maps.app.goo.gl/',
    'VXX7',
    '87C4VXX7',
    'CFGHJMPQRVWX',
    '00',
    '\ud800',
    '\udfff',
    '\u0000',
    '\u200b',
    '３８．８９',
    '－',
    'ﷺ',
  );
  const mixes = fc.array(tokens, { maxLength: 40 }).map((list) => list.join(''));
  const contexts = fc.record({
    now: fc.oneof(fc.integer({ min: 0, max: 4_102_444_800_000 }), fc.constant(Number.NaN)),
    reference: fc.option(fc.record({ latitude, longitude })),
  });

  for (const [name, text] of [
    ['fc.string()', fc.string({ maxLength: 200 })],
    ['fc.string (full Unicode)', fc.string({ unit: 'binary', maxLength: 200 })],
    ['fc.string (graphemes)', fc.string({ unit: 'grapheme', maxLength: 100 })],
    ['mixes of digits, punctuation and format keywords', mixes],
  ] as const)
    it(`never throws and never yields an impossible location: ${name}`, () => {
      fc.assert(
        fc.property(text, contexts, (t, context) => {
          expectSane(parseTextLocation(t, context));
        }),
        { numRuns },
      );
    });
});
