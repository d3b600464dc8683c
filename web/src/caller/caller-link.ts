import {
  callerLinkPath,
  callerLinkTokenPattern,
  smsLanguages,
  type CallerLink,
  type SmsLanguage,
} from '@locus/contract/caller';

/** The token of `/share?token=…`, or null when there is none that could be valid. */
export function callerToken(search: URLSearchParams): string | null {
  const token = search.get('token');
  return token !== null && callerLinkTokenPattern.test(token) ? token : null;
}

/** The page for a link that no longer works (a refused socket with a link still "active" included). */
export type LinkEnd = Exclude<CallerLink['status'], 'active'>;

const ends: readonly string[] = ['ended', 'expired', 'stopped', 'invalid'];
const isLanguage = (value: unknown): value is SmsLanguage =>
  smsLanguages.some((code) => code === value);

/**
 * The contract's `CallerLink`, checked by hand: the page carries no schema library, and an
 * answer of any other shape is treated as a failed load (the caller can try again).
 */
export function parseCallerLink(body: unknown): CallerLink | null {
  if (typeof body !== 'object' || body === null) return null;
  const { status, language, agencyName, textBack } = body as Record<string, unknown>;
  if (status === 'active') {
    return isLanguage(language) && typeof agencyName === 'string'
      ? { status, language, agencyName, textBack: parseTextBack(textBack) }
      : null;
  }
  if (
    typeof status === 'string' &&
    ends.includes(status) &&
    (language === null || isLanguage(language))
  ) {
    return { status: status as LinkEnd, language };
  }
  return null;
}

/** Where the page may offer to text its position (see the contract's `CallerLink`). */
export type TextBack = Extract<CallerLink, { status: 'active' }>['textBack'];

/** Where to text a position back; anything malformed means "do not offer it". */
function parseTextBack(value: unknown): TextBack {
  if (typeof value !== 'object' || value === null) return null;
  const { number, code, afterMs } = value as Record<string, unknown>;
  return typeof number === 'string' &&
    /^\+\d{6,15}$/.test(number) &&
    typeof code === 'string' &&
    /^[2-9A-HJ-NP-Z]{4}$/.test(code) &&
    typeof afterMs === 'number' &&
    Number.isFinite(afterMs) &&
    afterMs > 0
    ? { number, code, afterMs }
    : null;
}

/**
 * What the link says before the caller agrees to anything: who asks, in which language, or why
 * it no longer works. Reading it never consumes the link, and needs no dispatcher session.
 */
export async function fetchCallerLink(token: string): Promise<CallerLink> {
  // Exactly the URL and mode of the preload the server announced with the page (`Link`
  // header, see web-app.ts): the answer is usually here before this script has even run.
  const response = await fetch(`${callerLinkPath}?token=${encodeURIComponent(token)}`);
  const link = response.ok ? parseCallerLink(await response.json()) : null;
  if (!link) throw new Error(`caller link: HTTP ${response.status}`);
  return link;
}
