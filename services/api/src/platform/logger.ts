import type { FastifyServerOptions } from 'fastify';

// A run of digits that stands alone: never part of a word, an id or a UUID (which it would mangle).
const PHONE = /(?<![\w-])(?:\+|%2[Bb])?\d[\d\s().-]{6,}\d(?![\w-])/g;
// `signature`: a signed media URL is a bearer link to a caller's photo for 15 minutes; the
// caller's position (a photo's EXIF, issue 19) travels in the upload's query string.
const SECRET_QUERY =
  /([?&](?:token|reset-code|verification-code|invitation-code|signature|latitude|longitude)=)[^&#]*/gi;

// The case-transfer confirmation carries the join-stream socket token in its path (SPEC.md §7).
const SECRET_PATH = /(\/mark-case-transfer-confirmation\/[^/?#]+\/[^/?#]+\/)[^/?#]+/gi;

/** Strips tokens and phone numbers from a URL before it reaches a log line. */
export function redactUrl(url: string): string {
  return url
    .replace(SECRET_QUERY, '$1[redacted]')
    .replace(SECRET_PATH, '$1[redacted]')
    .replace(PHONE, '[phone]');
}

/** pino options: phone numbers, tokens and auth headers never reach the logs. */
export function loggerOptions(level: string): FastifyServerOptions['logger'] {
  return {
    level,
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        'res.headers["set-cookie"]',
        '*.token',
        '*.password',
        '*.phoneNumber',
        '*.phone_number',
        '*.dispatcherToken',
        '*.callerToken',
      ],
      censor: '[redacted]',
    },
    serializers: {
      req: (req: { method: string; url: string; ip?: string }) => ({
        method: req.method,
        url: redactUrl(req.url),
        ip: req.ip,
      }),
    },
  };
}
