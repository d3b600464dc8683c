/**
 * The operations console shows this instance's configuration so that an operator can tell at
 * 3 a.m. which provider, limits and URLs it runs with, but nothing on that screen may show a
 * secret (issue 22): a screenshot in a ticket must not leak a password. Pure, so that a unit
 * test can feed it a configuration full of secrets (redact-config.test.ts).
 */

export const REDACTED = '[redacted]';

export interface ConfigEntry {
  key: string;
  value: string | null;
  redacted: boolean;
}

/**
 * Names that suggest a secret. Substrings, not whole words, and broad on purpose: a setting
 * added later (`SMTP_PASSWORD`, `S3_SECRET_ACCESS_KEY`, `SENTRY_AUTH_TOKEN`) is hidden without
 * anyone remembering to list it. Hiding too much costs a look at the deployment; too little
 * leaks a credential.
 */
const secretName = /KEY|SECRET|PASS|PWD|TOKEN|AUTH|PRIVATE|CREDENTIAL|SALT|COOKIE|SIGNATURE|DSN/i;

/**
 * Settings whose names match `secretName` but hold no secret (a key prefix, rate limits, token
 * lifetimes, WebAuthn's public names). Exact names only, so that the exception cannot grow to a
 * secret by accident; credentials inside their values are still replaced.
 */
const notSecret = new Set([
  'REDIS_KEY_PREFIX',
  'AUTH_RATE_LIMIT_MAX',
  'AUTH_RATE_LIMIT_WINDOW_SECONDS',
  'DISPATCHER_TOKEN_TTL_SECONDS',
  'CALLER_TOKEN_TTL_SECONDS',
  'PASSWORD_RESET_TTL_SECONDS',
  // WebAuthn's relying party is public: every browser that creates a passkey is told it.
  'WEBAUTHN_RP_ID',
  'WEBAUTHN_RP_NAME',
  'WEBAUTHN_ORIGIN',
]);

export function isSecretName(key: string): boolean {
  return secretName.test(key) && !notSecret.has(key);
}

/** `scheme://` and the run of URL characters after it. */
const urlRun = /([a-z][a-z0-9+.-]*:\/\/)([^\s"'<>]*)/gi;
/** A query parameter whose name suggests a secret (`?password=…`, `&sslkey=…`, `&access_token=…`). */
const secretQueryParameter = /([?&;])([^=&;#\s"'<>]*)=([^&;#\s"'<>]*)/g;

/**
 * Whether the text between `://` and an `@` is credentials rather than a path holding an `@`
 * (`https://www.youtube.com/@example`, `https://host:8080/@team`). Credentials have no `/`
 * unless a password holds one unencoded (`redis://:pa/ss@host`): a `:` before the first `/`
 * followed by anything but a port number.
 */
function isUserinfo(candidate: string): boolean {
  const slash = candidate.indexOf('/');
  if (slash === -1) return true;
  const authority = candidate.slice(0, slash);
  const colon = authority.indexOf(':');
  return colon !== -1 && !/^\d*$/.test(authority.slice(colon + 1));
}

/**
 * Replaces the credentials in every URL inside `text` (the password, or a user name that stands
 * alone, which is often a token: `https://ghp_xxx@host`), and secret query parameters.
 */
export function redactUrlCredentials(text: string): { text: string; changed: boolean } {
  let changed = false;
  let result = text.replace(urlRun, (whole, scheme: string, rest: string) => {
    // The last `@` that ends credentials: a password may hold an `@` (or a `,`) unencoded, and
    // stopping at the first would show the rest of it; hiding a host with it is the lesser harm.
    // Earlier ones are tried too, for a path holding an `@` after a user-name-only token.
    for (
      let at = rest.lastIndexOf('@');
      at !== -1;
      at = at > 0 ? rest.lastIndexOf('@', at - 1) : -1
    ) {
      const userinfo = rest.slice(0, at);
      if (!isUserinfo(userinfo)) continue;
      changed = true;
      const colon = userinfo.indexOf(':');
      // Keep the user name when a password follows it (`postgres://locus:[redacted]@db`): which
      // role connects is worth seeing, and not secret.
      const shown = colon === -1 ? REDACTED : `${userinfo.slice(0, colon)}:${REDACTED}`;
      return `${scheme}${shown}${rest.slice(at)}`;
    }
    return whole;
  });
  result = result.replace(
    secretQueryParameter,
    (whole, separator: string, name: string, value: string) => {
      if (!value || !isSecretName(name)) return whole;
      changed = true;
      return `${separator}${name}=${REDACTED}`;
    },
  );
  return { text: result, changed };
}

/** A setting's value as text: numbers and flags as written, lists and objects as JSON. */
function asText(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
    return String(value);
  return JSON.stringify(value);
}

/**
 * Every key of `keys` (the schema's, so that unset ones show as null) and of `config`, sorted,
 * each value as text; a secret-named key reads "[redacted]" (null stays null: "not set" is
 * worth knowing and tells nothing), and credentials inside any other value are replaced.
 */
export function redactConfig(
  config: Readonly<Record<string, unknown>>,
  keys: readonly string[] = [],
): ConfigEntry[] {
  const names = [...new Set([...keys, ...Object.keys(config)])].sort();
  return names.map((key) => {
    const value = asText(config[key]);
    if (value === null) return { key, value: null, redacted: false };
    if (isSecretName(key)) return { key, value: REDACTED, redacted: true };
    const { text, changed } = redactUrlCredentials(value);
    return { key, value: text, redacted: changed };
  });
}
