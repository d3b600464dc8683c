import { describe, expect, it } from 'vitest';
import { maxParsedLength, parseTextLocation, type ParsedTextLocation } from './parse';

const now = Date.UTC(2025, 5, 1, 14, 5, 0); // 2025-06-01 14:05:00Z
const noReference = { now, reference: null };
const nearWhiteHouse = { now, reference: { latitude: 38.9, longitude: -77.0 } };

/** The same message in the four languages callers text us in. */
const languages: Record<string, (location: string) => string> = {
  en: (location) => `Help, I'm here: ${location} please hurry`,
  es: (location) => `Ayuda, estoy aquí: ${location} por favor, rápido`,
  fr: (location) => `Au secours, je suis là : ${location} venez vite`,
  zh: (location) => `救命！我的位置：${location}请快来`,
};

type Expected = Partial<Extract<ParsedTextLocation, { kind: 'location' }>>;

function expectLocation(result: ParsedTextLocation, expected: Expected, precision = 1e-6) {
  expect(result.kind, JSON.stringify(result)).toBe('location');
  if (result.kind !== 'location') return;
  const { latitude, longitude, ...rest } = expected;
  if (latitude !== undefined) expect(Math.abs(result.latitude - latitude)).toBeLessThan(precision);
  if (longitude !== undefined)
    expect(Math.abs(result.longitude - longitude)).toBeLessThan(precision);
  expect(result).toMatchObject(rest);
}

const whiteHouse = { latitude: 38.8977, longitude: -77.0365 };
const dmsWhiteHouse = {
  latitude: 38 + 53 / 60 + 51.7 / 3600,
  longitude: -(77 + 2 / 60 + 11.4 / 3600),
};

interface Example {
  text: string;
  expected: Expected;
  context?: Parameters<typeof parseTextLocation>[1];
  precision?: number;
}

const examples: Record<string, Example[]> = {
  loc: [
    {
      text: 'LOC 38.89770,-77.03650 ±12m 14:02:10Z #K7Q2',
      expected: {
        ...whiteHouse,
        format: 'loc',
        accuracyM: 12,
        capturedAt: Date.UTC(2025, 5, 1, 14, 2, 10),
        code: 'K7Q2',
      },
    },
    {
      text: 'loc 38.89770, -77.03650 +/- 12 m 14:02:10z #k7q2',
      expected: { ...whiteHouse, format: 'loc', accuracyM: 12, code: 'K7Q2' },
    },
    {
      text: 'LOC 38.89770,-77.03650 +-12m 14:02:10Z #K7Q2',
      expected: { ...whiteHouse, accuracyM: 12, code: 'K7Q2' },
    },
    {
      text: 'LOC 38.89770,-77.03650 ~12m 14:02:10Z',
      expected: { ...whiteHouse, accuracyM: 12, code: null },
    },
    {
      text: 'LOC  38.89770,-77.03650  12m  #K7Q2',
      expected: { ...whiteHouse, accuracyM: 12, capturedAt: null, code: 'K7Q2' },
    },
    {
      text: 'LOC 38.89770,-77.03650',
      expected: { ...whiteHouse, format: 'loc', accuracyM: null, capturedAt: null, code: null },
    },
    {
      // GSM has no ±: some carriers send a question mark instead.
      text: 'LOC -33.86880,151.20930 ?8m 03:59:59Z #ABCD',
      expected: {
        latitude: -33.8688,
        longitude: 151.2093,
        accuracyM: 8,
        capturedAt: Date.UTC(2025, 5, 1, 3, 59, 59),
        code: 'ABCD',
      },
    },
  ],
  'geo-uri': [
    {
      text: 'geo:38.8977,-77.0365',
      expected: { ...whiteHouse, format: 'geo-uri', accuracyM: null },
    },
    { text: 'geo:38.8977,-77.0365,12', expected: { ...whiteHouse, accuracyM: null } },
    { text: 'geo:38.8977,-77.0365;u=35', expected: { ...whiteHouse, accuracyM: 35 } },
    { text: 'GEO:38.8977,-77.0365;crs=wgs84;u=7.5', expected: { ...whiteHouse, accuracyM: 7.5 } },
    { text: 'geo:0,0?q=38.8977,-77.0365(Label)', expected: { ...whiteHouse, format: 'geo-uri' } },
    { text: 'geo:0,0?q=38.8977%2C-77.0365(My+place)', expected: whiteHouse },
  ],
  'google-maps': [
    {
      text: 'https://maps.google.com/?q=38.8977,-77.0365',
      expected: { ...whiteHouse, format: 'google-maps' },
    },
    { text: 'https://www.google.com/maps?q=38.8977,-77.0365', expected: whiteHouse },
    { text: 'maps.google.com/?q=38.8977,-77.0365', expected: whiteHouse },
    {
      text: 'https://www.google.com/maps/search/?api=1&query=38.8977%2C-77.0365',
      expected: whiteHouse,
    },
    {
      text: 'https://www.google.com/maps/place/Some+Place/@38.8977,-77.0365,17z/',
      expected: whiteHouse,
    },
    { text: 'https://www.google.com/maps/@38.8977,-77.0365,15z', expected: whiteHouse },
    {
      text: 'https://www.google.com/maps/place/38°53\'51.7"N+77°02\'11.4"W/@38.8976,-77.0370,17z',
      expected: dmsWhiteHouse,
    },
    {
      text: "https://www.google.com/maps/place/38%C2%B053'51.7%22N+77%C2%B002'11.4%22W/@38.8976,-77.0370,17z/data=!3m1!4b1",
      expected: dmsWhiteHouse,
    },
    {
      // The pin (!3d!4d) wins over the viewport's centre (@).
      text: 'https://www.google.com/maps/place/The+White+House/@38.8975,-77.0400,17z/data=!3m1!4b1!4m6!3m5!1s0x89b7b7bcdecbb1df:0x715969d86d0b76bf!8m2!3d38.8977!4d-77.0365!16zL20vMDgxc3E?entry=ttu',
      expected: whiteHouse,
    },
    { text: 'https://www.google.es/maps?q=loc:38.8977,-77.0365', expected: whiteHouse },
  ],
  'apple-maps': [
    {
      text: 'https://maps.apple.com/?ll=38.8977,-77.0365&q=Pin',
      expected: { ...whiteHouse, format: 'apple-maps' },
    },
    { text: 'https://maps.apple.com/?q=38.8977,-77.0365', expected: whiteHouse },
    { text: 'https://maps.apple.com/?sll=38.8977,-77.0365', expected: whiteHouse },
    { text: 'https://maps.apple.com/?sll=10.5,20.5&ll=38.8977,-77.0365', expected: whiteHouse },
    {
      text: 'https://maps.apple.com/place?coordinate=38.8977,-77.0365&name=Marked%20Location',
      expected: whiteHouse,
    },
  ],
  openstreetmap: [
    {
      text: 'https://www.openstreetmap.org/?mlat=38.8977&mlon=-77.0365#map=17/38.8990/-77.0400',
      expected: { ...whiteHouse, format: 'openstreetmap' },
    },
    { text: 'https://www.openstreetmap.org/#map=17/38.8977/-77.0365', expected: whiteHouse },
    { text: 'https://osm.org/#map=19/38.8977/-77.0365&layers=N', expected: whiteHouse },
  ],
  'plus-code': [
    {
      text: '87C4VXX7+39',
      expected: { latitude: 38.897688, longitude: -77.036562, format: 'plus-code', accuracyM: 9 },
    },
    { text: '87c4vxx7+39', expected: { latitude: 38.897688, longitude: -77.036562 } },
    {
      text: '87C4VXX7+39X',
      expected: { latitude: 38.897738, longitude: -77.036516, accuracyM: 2 },
    },
    {
      // Padded: a one-degree cell, valid but very coarse.
      text: '87C40000+',
      expected: { latitude: 38.5, longitude: -77.5, accuracyM: 70_679 },
    },
    {
      text: 'VXX7+39 Washington, DC',
      context: nearWhiteHouse,
      expected: { latitude: 38.897688, longitude: -77.036562, accuracyM: 9 },
    },
    {
      text: 'C4VXX7+39',
      context: { now, reference: { latitude: 45, longitude: -70 } },
      expected: { latitude: 38.897688, longitude: -77.036562 },
    },
  ],
  coordinates: [
    {
      text: '38.8977, -77.0365',
      expected: { ...whiteHouse, format: 'coordinates', accuracyM: null },
    },
    { text: '38.8977 -77.0365', expected: whiteHouse },
    { text: '38.8977,-77.0365', expected: whiteHouse },
    { text: '38.8977 N, 77.0365 W', expected: whiteHouse },
    { text: 'N38.8977 W77.0365', expected: whiteHouse },
    { text: '38.8977°N 77.0365°O', expected: whiteHouse },
    { text: '33.8688° S, 151.2093° E', expected: { latitude: -33.8688, longitude: 151.2093 } },
    { text: `38°53'51.7"N 77°02'11.4"W`, expected: dmsWhiteHouse },
    { text: '38°53′51.7″N 77°02′11.4″W', expected: dmsWhiteHouse },
    { text: `38°53'51.7''N 77°02'11.4''W`, expected: dmsWhiteHouse },
    { text: `38° 53' 51.7" N, 77° 2' 11.4" W`, expected: dmsWhiteHouse },
    { text: `38º53'51.7"N 77º02'11.4"W`, expected: dmsWhiteHouse },
    { text: '３８．８９７７，－７７．０３６５', expected: whiteHouse },
    { text: '北纬38.8977°，西经77.0365°', expected: whiteHouse },
    { text: '38。8977，－77。0365', expected: whiteHouse },
    { text: '38.8977,\u00a0-77.0365', expected: whiteHouse },
    { text: 'Lat: 38.8977, Long: -77.0365', expected: whiteHouse },
    { text: 'latitud 38.8977 longitud -77.0365', expected: whiteHouse },
    { text: '纬度：38.8977，经度：-77.0365', expected: whiteHouse },
  ],
};

describe('parseTextLocation: each format, in messages in each language', () => {
  for (const [format, list] of Object.entries(examples))
    describe(format, () => {
      for (const [language, wrap] of Object.entries(languages))
        it.each(list)(`${language}: $text`, ({ text, expected, context, precision }) => {
          expectLocation(
            parseTextLocation(wrap(text), context ?? noReference),
            { format: format as Expected['format'], ...expected },
            precision,
          );
        });
    });
});

describe('parseTextLocation: realistic messages', () => {
  it.each([
    ['Estoy aquí: https://www.google.com/maps?q=38.8977,-77.0365 ayúdenme', 'google-maps'],
    ['Je suis là geo:38.8977,-77.0365;u=20', 'geo-uri'],
    ['我的位置：https://maps.google.com/?q=38.8977,-77.0365', 'google-maps'],
    ['我在这里 38.8977, -77.0365，车坏了', 'coordinates'],
    ['Mi ubicación es 38.8977, -77.0365. Somos 2 personas.', 'coordinates'],
    ['Nous sommes 3, position: 38.8977 N, 77.0365 W, merci', 'coordinates'],
    ['Location: https://www.openstreetmap.org/?mlat=38.8977&mlon=-77.0365 thanks', 'openstreetmap'],
    ['Aquí: https://maps.apple.com/?ll=38.8977,-77.0365&q=Ubicaci%C3%B3n', 'apple-maps'],
  ])('%s', (text, format) => {
    expectLocation(parseTextLocation(text, noReference), { ...whiteHouse, format } as Expected);
  });
});

describe('parseTextLocation: a word never lends its letter to a hemisphere', () => {
  // "près" ends in s, "Ségur" starts with S, "Été" with E: none of them is a hemisphere.
  it.each([
    ['Je suis près 48.85661, 2.35222', 48.85661, 2.35222],
    ['48.85661, 2.35222 Ségur', 48.85661, 2.35222],
    ['cerca de la estación 40.41678, -3.70379', 40.41678, -3.70379],
    ['Été 48.85661 2.35222', 48.85661, 2.35222],
  ])('%s', (text, latitude, longitude) => {
    expect(parseTextLocation(text, noReference)).toMatchObject({
      kind: 'location',
      latitude,
      longitude,
    });
  });
});

describe('parseTextLocation: a directions link', () => {
  it('is not where the caller is', () => {
    expect(
      parseTextLocation('https://maps.apple.com/?daddr=38.8977,-77.0365', noReference).kind,
    ).not.toBe('location');
  });
});

describe('parseTextLocation: never more precise than written', () => {
  it.each([
    // Whole degrees: half a degree of latitude, whatever the text claims.
    ['geo:38,-77;u=10', 55_660],
    ['LOC 38.9,-77.0 ±12m', 5_566],
    // Five decimals: the stated accuracy stands.
    ['LOC 38.89770,-77.03650 ±12m', 12],
  ])('%s', (text, metres) => {
    const parsed = parseTextLocation(text, noReference);
    expect(parsed.kind).toBe('location');
    expect(parsed.kind === 'location' && parsed.accuracyM).toBeCloseTo(metres, -1);
  });

  it('leaves a precise position without a stated accuracy to the default', () => {
    expect(parseTextLocation('38.89770, -77.03650', noReference)).toMatchObject({
      accuracyM: null,
    });
  });
});

describe('parseTextLocation: the message time', () => {
  it('is the instant with that time of day nearest to now, within 12 hours either way', () => {
    const at = (time: string) =>
      parseTextLocation(`LOC 1.00000,2.00000 ±5m ${time}Z #ABCD`, noReference);
    expect(at('14:04:59')).toMatchObject({ capturedAt: Date.UTC(2025, 5, 1, 14, 4, 59) });
    // Ahead of now (a phone clock running fast): still today, never yesterday.
    expect(at('14:05:30')).toMatchObject({ capturedAt: Date.UTC(2025, 5, 1, 14, 5, 30) });
    expect(at('14:06:30')).toMatchObject({ capturedAt: Date.UTC(2025, 5, 1, 14, 6, 30) });
    expect(at('03:00:00')).toMatchObject({ capturedAt: Date.UTC(2025, 5, 1, 3, 0, 0) });
    // Across midnight, both ways.
    expect(at('23:59:00')).toMatchObject({ capturedAt: Date.UTC(2025, 5, 1, 23, 59, 0) });
    expect(at('02:05:00')).toMatchObject({ capturedAt: Date.UTC(2025, 5, 1, 2, 5, 0) });
    expect(at('02:04:00')).toMatchObject({ capturedAt: Date.UTC(2025, 5, 2, 2, 4, 0) });
  });

  it('is null without a time, and invalid when the time is not a time of day', () => {
    expect(parseTextLocation('LOC 1.00000,2.00000 ±5m #ABCD', noReference)).toMatchObject({
      capturedAt: null,
    });
    expect(parseTextLocation('LOC 1.00000,2.00000 ±5m 24:00:00Z #ABCD', noReference)).toEqual({
      kind: 'invalid',
      format: 'loc',
      reason: 'Time 24:00:00 is not a time of day.',
      code: 'ABCD',
    });
  });
});

describe('parseTextLocation: nothing to read', () => {
  it.each([
    'I am at the north gate',
    'Estoy en la puerta norte',
    'Je suis à la porte nord',
    '我在北门',
    'Room 12, 34 people',
    '5.5, 6.2 km',
    'call 911, 2 hurt',
    'Llamé al 911 a las 14:30, somos 4',
    'Il fait -3.5 °C, 2 blessés',
    '价格是12.50元，共3个',
    'Meet me at 12:30, table 4.',
    'Version 1.2.3.4, build 5678',
    'Long: -77.0365, Lat: 38.8977',
    'Monto: 1.234,56 €',
    'Coordenadas: 38,8977, -77,0365',
    'Phone +34 612 345 678',
    '2+2=4, 1234+56',
    'tenemos 1.500 y 2.000 personas',
    'IP 192.168.1.1, 10.0.0.1',
    'Location: Main St 12.3456',
    'geo: the study of the Earth',
    'LOCATION unknown',
    'see https://example.com/?ll=38.8977,-77.0365',
    '1.2345, 38.8977, -77.0365',
    '38N 77W',
    '',
  ])('%j', (text) => {
    expect(parseTextLocation(text, nearWhiteHouse)).toEqual({ kind: 'none' });
  });
});

describe('parseTextLocation: looks like a location but cannot be one', () => {
  it.each([
    ['LOC 123.4,5.6', 'loc', 'Latitude 123.4 is out of range.'],
    ['LOC 12.34567,-190.00000 ±5m #K7Q2', 'loc', 'Longitude -190.00000 is out of range.'],
    ['LOC 12.34567,10.00000 ±123456m', 'loc', 'Accuracy 123456 m is out of range.'],
    ['geo:91,0', 'geo-uri', 'Latitude 91 is out of range.'],
    ['geo:38.8977,-181', 'geo-uri', 'Longitude -181 is out of range.'],
    [
      'Estoy aquí: https://maps.app.goo.gl/Xyz123AbC',
      'google-maps',
      'Short map links cannot be read; ask for the coordinates or a Plus Code.',
    ],
    [
      'https://goo.gl/maps/abcdEFGH',
      'google-maps',
      'Short map links cannot be read; ask for the coordinates or a Plus Code.',
    ],
    [
      'https://osm.org/go/ZWp2Iqpr--',
      'openstreetmap',
      'Short map links cannot be read; ask for the coordinates or a Plus Code.',
    ],
    [
      'https://maps.apple/p/abc.def',
      'apple-maps',
      'Short map links cannot be read; ask for the coordinates or a Plus Code.',
    ],
    [
      'https://www.google.com/maps/place/White+House',
      'google-maps',
      'This Google Maps link gives no coordinates; ask for the coordinates or a Plus Code.',
    ],
    [
      'https://maps.apple.com/?address=1600+Pennsylvania',
      'apple-maps',
      'This Apple Maps link gives no coordinates; ask for the coordinates or a Plus Code.',
    ],
    [
      'https://www.openstreetmap.org/node/123',
      'openstreetmap',
      'This OpenStreetMap link gives no coordinates; ask for the coordinates or a Plus Code.',
    ],
    [
      'https://www.openstreetmap.org/?mlat=95.1&mlon=10',
      'openstreetmap',
      'Latitude 95.1 is out of range.',
    ],
    [
      'https://maps.google.com/?q=38.8977,-277.0365',
      'google-maps',
      'Longitude -277.0365 is out of range.',
    ],
    ['geo:0,0', 'geo-uri', 'The geo: link gives 0,0, which is a placeholder, not a position.'],
    [
      'geo:0,0?q=Casa+Blanca',
      'geo-uri',
      'The geo: link names a place, not coordinates; ask for the coordinates or a Plus Code.',
    ],
    [
      'VXX7+39 Washington, DC',
      'plus-code',
      'A short Plus Code needs a nearby known position; ask for the full code.',
    ],
    ['139.6917, 35.6895', 'coordinates', 'Latitude 139.6917 is out of range.'],
    [`38°75'51.7"N 77°02'11.4"W`, 'coordinates', 'Minutes 75 are out of range.'],
    ['XXXXXXXX+XX', 'plus-code', 'XXXXXXXX+XX is not a valid Plus Code.'],
  ])('%s', (text, format, reason) => {
    for (const wrap of [(t: string) => t, ...Object.values(languages)])
      expect(parseTextLocation(wrap(text), noReference)).toMatchObject({
        kind: 'invalid',
        format,
        reason,
      });
  });

  it('keeps the LOC code of an invalid LOC text', () => {
    expect(parseTextLocation('LOC 95.00000,10.00000 ±5m 14:00:00Z #k7q2', noReference)).toEqual({
      kind: 'invalid',
      format: 'loc',
      reason: 'Latitude 95.00000 is out of range.',
      code: 'K7Q2',
    });
  });

  it('does not read the coordinates of an invalid LOC text as plain coordinates', () => {
    expect(
      parseTextLocation('LOC 38.89770,-77.03650 ±12m 25:02:10Z #K7Q2', noReference),
    ).toMatchObject({ kind: 'invalid', format: 'loc' });
  });
});

describe('parseTextLocation: several locations', () => {
  it('takes LOC first, then geo:, map links, Plus Codes, plain coordinates', () => {
    const loc = 'LOC 1.00000,1.00000 ±5m';
    const geo = 'geo:2,2';
    const link = 'https://maps.google.com/?q=3.0,3.0';
    const plus = '6FG22222+22';
    const plain = '4.0000, 4.0000';
    const pick = (...parts: string[]) => parseTextLocation(parts.join(' and '), noReference);
    expect(pick(plain, plus, link, geo, loc)).toMatchObject({ format: 'loc' });
    expect(pick(plain, plus, link, geo)).toMatchObject({ format: 'geo-uri' });
    expect(pick(plain, plus, link)).toMatchObject({ format: 'google-maps' });
    expect(pick(plain, plus)).toMatchObject({ format: 'plus-code' });
    expect(pick('5.0000, 5.0000', plain)).toMatchObject({ latitude: 5, longitude: 5 });
  });

  it('takes a readable location over an unreadable one', () => {
    expect(
      parseTextLocation('https://maps.app.goo.gl/abc o 38.8977, -77.0365', noReference),
    ).toMatchObject({ kind: 'location', format: 'coordinates' });
    expect(parseTextLocation('LOC 95.1,0.1 then LOC 38.1,-77.1', noReference)).toMatchObject({
      kind: 'location',
      latitude: 38.1,
    });
  });

  it('prefers the geo: query (the pin) over its placeholder, and uses u only for the same point', () => {
    expect(
      parseTextLocation('geo:38.8977,-77.0365;u=10?q=38.8977,-77.0365', noReference),
    ).toMatchObject({ accuracyM: 10 });
    expect(parseTextLocation('geo:38.8,-77.0;u=10?q=38.8977,-77.0365', noReference)).toMatchObject({
      ...whiteHouse,
      accuracyM: null,
    });
  });
});

describe('parseTextLocation: robustness', () => {
  it('reads only the first maxParsedLength characters', () => {
    const padding = 'x '.repeat(maxParsedLength);
    expect(parseTextLocation(`${padding}38.8977, -77.0365`, noReference)).toEqual({ kind: 'none' });
  });

  it.each([
    ['100k characters', 'a1.'.repeat(33_334)],
    ['a run of digits', '1'.repeat(100_000)],
    ['lone surrogates', '\ud800\udc00\ud800 LOC 1.0,\udfff2.0'],
    ['control characters', '\u0000LOC\u0001 38.1,\u0007-77.1\u001b'],
    ['repeated keywords', 'LOC geo:+°maps.google.com/?q='.repeat(2_000)],
    ['many plus signs', 'VXX7+'.repeat(20_000)],
    ['NFKC expansion', '\ufdfa'.repeat(100_000)],
  ])('never throws and stays fast: %s', (_, text) => {
    const started = performance.now();
    expect(() => parseTextLocation(text, nearWhiteHouse)).not.toThrow();
    expect(performance.now() - started).toBeLessThan(500);
  });

  it('tolerates a bad context', () => {
    const context = { now: Number.NaN, reference: { latitude: Number.NaN, longitude: 500 } };
    expect(parseTextLocation('LOC 1.00000,2.00000 ±5m 14:00:00Z', context)).toMatchObject({
      kind: 'location',
      capturedAt: null,
    });
    expect(parseTextLocation('VXX7+39', context)).toMatchObject({ kind: 'invalid' });
  });
});
