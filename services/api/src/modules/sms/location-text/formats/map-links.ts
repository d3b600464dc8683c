/**
 * Map links from the share sheets of Google Maps, Apple Maps and OpenStreetMap. A link's pin is
 * read in preference to the map's viewport (Google's `!3d…!4d…` data before its `@` centre,
 * OSM's `mlat`/`mlon` marker before `#map=`, Apple's `ll` before `sll`). Short links would have
 * to be fetched to be read: they come back invalid, asking for coordinates or a Plus Code.
 */
import { normalizeText, percentDecode } from '../normalize';
import {
  invalid,
  isAsciiAlnum,
  isAsciiLetter,
  located,
  numberContinues,
  readNumber,
  skipSpace,
  splitParams,
  startsWithCI,
  tokenEnd,
} from '../scan';
import type { Candidate, Found, ParseContext, TextLocationFormat } from '../types';
import { readPair, type PairMode } from './coordinates';
import { plusCodeAtStart } from './plus-code';

const shortLink = 'Short map links cannot be read; ask for the coordinates or a Plus Code.';
const noCoordinates = (name: string): string =>
  `This ${name} link gives no coordinates; ask for the coordinates or a Plus Code.`;

interface Link {
  host: string;
  /** Decoded ('+' as a space, as Google writes its paths) and normalised. */
  path: string;
  query: Map<string, string>;
  fragment: Map<string, string>;
  maxLength: number;
}

function splitLink(url: string, maxLength: number): Link {
  const schemeEnd = url.indexOf('://');
  const rest = schemeEnd >= 0 && schemeEnd <= 5 ? url.slice(schemeEnd + 3) : url;
  let hostEnd = 0;
  while (hostEnd < rest.length && !'/?#'.includes(rest.charAt(hostEnd))) hostEnd++;
  let host = rest.slice(0, hostEnd).toLowerCase();
  host = host.slice(host.lastIndexOf('@') + 1);
  const port = host.indexOf(':');
  if (port >= 0) host = host.slice(0, port);
  if (host.endsWith('.')) host = host.slice(0, -1);
  const tail = rest.slice(hostEnd);
  const hashAt = tail.indexOf('#');
  const beforeHash = hashAt < 0 ? tail : tail.slice(0, hashAt);
  const questionAt = beforeHash.indexOf('?');
  const rawPath = questionAt < 0 ? beforeHash : beforeHash.slice(0, questionAt);
  return {
    host,
    path: normalizeText(percentDecode(rawPath, true), maxLength),
    query: splitParams(questionAt < 0 ? '' : beforeHash.slice(questionAt + 1)),
    fragment: splitParams(hashAt < 0 ? '' : tail.slice(hashAt + 1)),
    maxLength,
  };
}

const decodedValue = (raw: string, maxLength: number): string =>
  normalizeText(percentDecode(raw, true), maxLength);

function withFormat(found: Found, format: TextLocationFormat): Found {
  return { ...found, format };
}

/** Coordinates (or a Plus Code) at the start of a parameter value: `38.8977,-77.0365(Pin)`. */
function readValue(
  raw: string | undefined,
  link: Link,
  format: TextLocationFormat,
  context: ParseContext,
  mode: PairMode,
): Found | null {
  if (raw === undefined) return null;
  let value = decodedValue(raw, link.maxLength);
  if (startsWithCI(value, 0, 'loc:')) value = value.slice(4);
  value = value.slice(skipSpace(value, 0));
  const pair = readPair(value, 0, mode);
  if (pair)
    return 'problem' in pair.result
      ? invalid(format, pair.result.problem)
      : located(format, pair.result.latitude, pair.result.longitude);
  const code = plusCodeAtStart(value, context);
  return code ? withFormat(code, format) : null;
}

/** One number that is the whole value (`mlat=38.8977`), or null. */
function wholeNumber(raw: string | undefined, link: Link) {
  if (raw === undefined) return null;
  const value = decodedValue(raw, link.maxLength);
  const n = readNumber(value, 0);
  return n && !numberContinues(value, n.end) && !isAsciiAlnum(value.charCodeAt(n.end)) ? n : null;
}

const googleHost = /^(?:www\.|maps\.)?google\.(?:com?\.)?[a-z]{2,3}$/;

function readGoogle(link: Link, context: ParseContext): Found | null {
  const { host, path } = link;
  if (host === 'maps.app.goo.gl' || (host === 'goo.gl' && path.startsWith('/maps')))
    return invalid('google-maps', shortLink);
  if (!googleHost.test(host)) return null;
  const segments = path.split('/');
  if (!host.startsWith('maps.') && segments[1] !== 'maps') return null;
  if (segments.includes('dir'))
    return invalid(
      'google-maps',
      'A directions link does not say where the caller is; ask for the coordinates or a Plus Code.',
    );
  // The pin: `!3d<lat>!4d<lon>` in the data parameter (in the path, sometimes the query).
  const data = [path, decodedValue(link.query.get('data') ?? '', link.maxLength)];
  for (const text of data)
    for (let at = text.indexOf('!3d'); at >= 0; at = text.indexOf('!3d', at + 3)) {
      const latitude = readNumber(text, at + 3);
      if (!latitude || !text.startsWith('!4d', latitude.end)) continue;
      const longitude = readNumber(text, latitude.end + 3);
      if (longitude && !numberContinues(text, longitude.end))
        return located('google-maps', latitude, longitude);
    }
  // /maps/place/<coordinates>/…, /maps/search/<coordinates>
  for (let k = 1; k + 1 < segments.length; k++)
    if (segments[k] === 'place' || segments[k] === 'search') {
      const found = readValue(segments[k + 1], link, 'google-maps', context, 'query');
      if (found) return found;
    }
  for (const [name, mode] of [
    ['q', 'query'],
    ['query', 'query'],
    ['ll', 'link'],
    ['center', 'link'],
  ] as const) {
    const found = readValue(link.query.get(name), link, 'google-maps', context, mode);
    if (found) return found;
  }
  // The viewport's centre, `@38.8977,-77.0365,17z`: for a place or a plain map, not a search.
  if (!segments.includes('search'))
    for (const segment of segments)
      if (segment.startsWith('@')) {
        const found = readValue(segment.slice(1), link, 'google-maps', context, 'link');
        if (found) return found;
      }
  return invalid('google-maps', noCoordinates('Google Maps'));
}

function readApple(link: Link, context: ParseContext): Found | null {
  const { host, path } = link;
  if (
    host === 'maps.apple' ||
    ((host === 'maps.apple.com' || host === 'www.maps.apple.com') && path.startsWith('/p/'))
  )
    return invalid('apple-maps', shortLink);
  if (host !== 'maps.apple.com' && host !== 'www.maps.apple.com') return null;
  for (const [name, mode] of [
    ['coordinate', 'link'],
    ['ll', 'link'],
    ['q', 'query'],
    // Not `daddr`: a directions link names where to go, not where the caller is.
    ['sll', 'link'],
    ['center', 'link'],
  ] as const) {
    const found = readValue(link.query.get(name), link, 'apple-maps', context, mode);
    if (found) return found;
  }
  return invalid('apple-maps', noCoordinates('Apple Maps'));
}

const osmHosts = new Set(['openstreetmap.org', 'www.openstreetmap.org', 'osm.org', 'www.osm.org']);

function readOpenStreetMap(link: Link, context: ParseContext): Found | null {
  if (!osmHosts.has(link.host)) return null;
  if (link.path.startsWith('/go/')) return invalid('openstreetmap', shortLink);
  for (const [latName, lonName] of [
    ['mlat', 'mlon'],
    ['lat', 'lon'],
  ] as const) {
    const latitude = wholeNumber(link.query.get(latName), link);
    const longitude = wholeNumber(link.query.get(lonName), link);
    if (latitude && longitude) return located('openstreetmap', latitude, longitude);
  }
  const query = readValue(link.query.get('query'), link, 'openstreetmap', context, 'query');
  if (query) return query;
  // #map=<zoom>/<lat>/<lon>
  for (const params of [link.fragment, link.query]) {
    const map = params.get('map');
    if (map === undefined) continue;
    const value = decodedValue(map, link.maxLength);
    const zoom = readNumber(value, 0, false);
    if (!zoom || value.charAt(zoom.end) !== '/') continue;
    const latitude = readNumber(value, zoom.end + 1);
    if (!latitude || value.charAt(latitude.end) !== '/') continue;
    const longitude = readNumber(value, latitude.end + 1);
    if (longitude && !numberContinues(value, longitude.end))
      return located('openstreetmap', latitude, longitude);
  }
  return invalid('openstreetmap', noCoordinates('OpenStreetMap'));
}

/** A map link we know (its location or why not), or null for any other link. */
function readLink(url: string, context: ParseContext, maxLength: number): Found | null {
  const link = splitLink(url, maxLength);
  return readGoogle(link, context) ?? readApple(link, context) ?? readOpenStreetMap(link, context);
}

/** Hosts recognised without `https://`, as people paste or type them. */
const bareHosts = [
  'maps.google.',
  'www.google.',
  'google.',
  'maps.app.goo.gl/',
  'goo.gl/maps',
  'maps.apple.com',
  'maps.apple/',
  'www.openstreetmap.org',
  'openstreetmap.org',
  'www.osm.org',
  'osm.org/',
];

export interface Span {
  start: number;
  end: number;
}

/** Every link in the text (any host: their numbers are no one's coordinates), in order. */
export function findLinks(s: string): Span[] {
  const spans: Span[] = [];
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i) | 0x20;
    if (c !== 104 && c !== 109 && c !== 119 && c !== 103 && c !== 111) continue; // h m w g o
    const before = s.charCodeAt(i - 1);
    let link = false;
    if (startsWithCI(s, i, 'http://') || startsWithCI(s, i, 'https://'))
      link = !isAsciiLetter(before);
    else if (!isAsciiAlnum(before) && !'.-/@'.includes(s.charAt(i - 1) || ' '))
      link = bareHosts.some((host) => startsWithCI(s, i, host));
    if (!link) continue;
    const end = tokenEnd(s, i);
    spans.push({ start: i, end });
    i = end - 1;
  }
  return spans;
}

/** The map links among `links`, up to the first readable one. */
export function scanLinks(
  s: string,
  links: Span[],
  context: ParseContext,
  maxLength: number,
): Candidate[] {
  const found: Candidate[] = [];
  for (const { start, end } of links) {
    const result = readLink(s.slice(start, end), context, maxLength);
    if (!result) continue;
    found.push({ start, end, result });
    if (result.kind === 'location') break;
  }
  return found;
}
