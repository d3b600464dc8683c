/**
 * What phones, keyboards and carriers do to a location text, undone before any format reads
 * it: Unicode compatibility forms (full-width digits and punctuation from Chinese keyboards),
 * the many spaces, dashes, primes and quotes, invisible characters, broken surrogates.
 */

// Before NFKC: it turns the masculine ordinal º into "o" and the acute accent into a space and a
// combining mark, though people type both for ° and '.
const degreeLookalikes = /[º˚⁰]/g;
const acuteAccent = /´/g;

const isDigitCode = (c: number): boolean => c >= 48 && c <= 57;

/** What one character becomes: a string, '' to drop it, or null to keep it as it is. */
function mapChar(c: number): string | null {
  if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) return ' ';
  switch (c) {
    case 0x1680:
    case 0x2028:
    case 0x2029:
    case 0x202f:
    case 0x205f:
    case 0x3000:
      return ' ';
    case 0x00ad: // soft hyphen
    case 0x180e:
    case 0x200b:
    case 0x200c:
    case 0x200d:
    case 0x2060:
    case 0xfeff:
      return '';
    case 0x3001: // ideographic comma
    case 0xff64: // half-width ideographic comma
      return ',';
    case 0x2010:
    case 0x2011:
    case 0x2012:
    case 0x2013:
    case 0x2212: // minus sign
    case 0xfe63:
      return '-';
    case 0x2018:
    case 0x2019:
    case 0x201b:
    case 0x2032: // prime
    case 0x02b9:
    case 0x02bc:
    case 0x0060:
      return "'";
    case 0x201c:
    case 0x201d:
    case 0x201e:
    case 0x201f:
    case 0x2033: // double prime (NFKC makes it two primes; kept for safety)
    case 0x02ba:
      return '"';
    default:
      if (c >= 0x2000 && c <= 0x200a) return ' ';
      return null;
  }
}

/**
 * The text every format reads: NFKC, one kind of space (runs collapsed to one, trimmed), ASCII
 * dashes, primes and quotes ('' becomes "), the ideographic full stop as a decimal point between
 * digits (a sentence end otherwise), lone surrogates replaced by U+FFFD.
 */
export function normalizeText(raw: string, maxLength: number): string {
  let s = raw.length > maxLength ? raw.slice(0, maxLength) : raw;
  s = s.replace(degreeLookalikes, '°').replace(acuteAccent, "'");
  try {
    s = s.normalize('NFKC');
  } catch {
    // Never for a string; keep the text as it is if it ever does.
  }
  // NFKC can make a text longer (a few characters expand many times).
  if (s.length > maxLength * 4) s = s.slice(0, maxLength * 4);
  const out: string[] = [];
  const last = (): string => out[out.length - 1] ?? ' ';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    let next: string;
    if (c >= 0xd800 && c <= 0xdbff) {
      const low = s.charCodeAt(i + 1);
      if (low >= 0xdc00 && low <= 0xdfff) {
        out.push(s.slice(i, i + 2));
        i++;
        continue;
      }
      next = '\ufffd';
    } else if (c >= 0xdc00 && c <= 0xdfff) {
      next = '\ufffd';
    } else if (c === 0x3002 || c === 0xff61) {
      // Ideographic full stop: a decimal point between digits, else the end of a sentence.
      next = isDigitCode(last().charCodeAt(0)) && isDigitCode(s.charCodeAt(i + 1)) ? '.' : ' ';
    } else {
      next = mapChar(c) ?? s.charAt(i);
    }
    if (next === '') continue;
    if (next === ' ') {
      if (last() === ' ') continue;
    } else if (next === "'" && last() === "'") {
      out[out.length - 1] = '"';
      continue;
    }
    out.push(next);
  }
  if (last() === ' ') out.pop();
  return out.join('');
}

const asciiEscape = /%([0-7][0-9a-f])/gi;

/**
 * Percent-decodes a URL part (and '+' to a space in query strings and Google's paths). Never
 * throws: a malformed escape leaves the rest decoded as far as it can be.
 */
export function percentDecode(part: string, plusAsSpace: boolean): string {
  const s = plusAsSpace ? part.replaceAll('+', ' ') : part;
  if (!s.includes('%')) return s;
  try {
    return decodeURIComponent(s);
  } catch {
    return s.replace(asciiEscape, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  }
}
