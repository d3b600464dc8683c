import { StatusThresholds, statusThresholdDefaults } from '@locus/contract';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { networkList } from './http/networks';
import { mediaConfigProblems, mediaConfigShape } from './modules/media/storage';
import { isFile, pmtilesLocation } from './modules/map-data/location';
import { trainingCatalogueProblems } from './modules/training/catalogue';

const int = (fallback: number) => z.coerce.number().int().positive().default(fallback);
const optionalUrl = z
  .string()
  .url()
  .optional()
  .or(z.literal('').transform(() => undefined));

/** A list of `{ name, url }` links as JSON text. */
const SocialLinks = z
  .string()
  .transform((text, context) => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      context.addIssue({ code: 'custom', message: 'must be JSON' });
      return z.NEVER;
    }
  })
  .pipe(z.array(z.object({ name: z.string().min(1), url: z.string().url() })));

const defaultSocialLinks = JSON.stringify([
  { name: 'LinkedIn', url: 'https://www.linkedin.com/company/example' },
  { name: 'X', url: 'https://x.com/example' },
  { name: 'YouTube', url: 'https://www.youtube.com/@example' },
]);

/** Fastify's `trustProxy`: `false`, `true`, a number of hops, or addresses / CIDR ranges. */
const TrustProxy = z
  .string()
  .trim()
  .min(1)
  .transform((value): boolean | number | string => {
    if (value === 'true') return true;
    if (value === 'false') return false;
    if (/^\d+$/.test(value)) return Number(value);
    return value;
  });

/**
 * Overrides of the platform status thresholds (`statusThresholdDefaults` in the contract) as a
 * JSON object, e.g. `{"queueWaiting":{"amber":50,"red":500}}`: a key overridden keeps what it
 * does not set (its direction), an unknown key is refused.
 */
export const StatusThresholdsJson = z
  .string()
  .transform((text, context) => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      context.addIssue({ code: 'custom', message: 'must be a JSON object' });
      return z.NEVER;
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      context.addIssue({ code: 'custom', message: 'must be a JSON object' });
      return z.NEVER;
    }
    const merged: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(parsed)) {
      if (!(key in statusThresholdDefaults)) {
        context.addIssue({ code: 'custom', message: `unknown threshold "${key}"` });
        return z.NEVER;
      }
      const defaults = statusThresholdDefaults[key as keyof typeof statusThresholdDefaults];
      merged[key] = typeof value === 'object' && value !== null ? { ...defaults, ...value } : value;
    }
    return merged;
  })
  .pipe(StatusThresholds);

/** A comma-separated list of ICE server URLs with one of `schemes`; empty or unset: none. */
function iceUrlList(schemes: string[]) {
  return z
    .string()
    .default('')
    .transform((text) =>
      text
        .split(',')
        .map((url) => url.trim())
        .filter(Boolean),
    )
    .refine(
      (urls) => urls.every((url) => schemes.some((scheme) => url.startsWith(scheme))),
      `must be comma-separated ${schemes.join(' or ')} URLs`,
    );
}

/** Development's authenticator-secret key; production must set its own. */
export const DEV_MFA_ENCRYPTION_KEY = 'dev-only-mfa-key-change-me';

/** Every setting of the API process. Each one is in `.env.example` with its default. */
export const ApiConfig = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  HOST: z.string().default('0.0.0.0'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  PUBLIC_URL: z.string().url().optional(),
  DATABASE_URL: z.string().url(),
  DB_POOL_MAX: int(10),
  /**
   * The worker's retention default, read here too so a session's page can say when its
   * history goes (teams.retention_days overrides it).
   */
  LOCATION_RETENTION_DAYS: int(90),
  REDIS_URL: z.string().url(),
  /** Namespaces every Redis key, channel and queue, so several deployments can share a Redis. */
  REDIS_KEY_PREFIX: z.string().default('locus:'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Which proxies may set X-Forwarded-For; rate limits are per client address. */
  TRUST_PROXY: TrustProxy.default('false'),
  /** Who may scrape /metrics without a platform admin's token: addresses or CIDR ranges. */
  METRICS_ALLOW_CIDRS: z
    .string()
    .default('127.0.0.0/8,::1/128')
    .refine((text) => isNetworkList(text), 'must be comma-separated addresses or CIDR ranges'),
  /** OpenTelemetry traces go to this OTLP/HTTP collector (`/v1/traces` is added); unset: off. */
  OTEL_EXPORTER_OTLP_ENDPOINT: optionalUrl,
  OTEL_EXPORTER_OTLP_PROTOCOL: z.enum(['http/protobuf', 'http/json']).default('http/protobuf'),
  OTEL_SERVICE_NAME: z.string().min(1).default('locus-api'),
  /** The built web app served on the same origin; the API alone runs without it. */
  WEB_DIST_DIR: z.string().default(fileURLToPath(new URL('../../../web/dist', import.meta.url))),
  FIX_BATCH_MAX_ROWS: int(500),
  FIX_BATCH_MAX_DELAY_MS: int(100),
  /** Events per session kept in Redis for fast replay; older ones are replayed from Postgres. */
  REPLAY_STREAM_MAX_LEN: int(5000),
  // Stamps each published fix with its accept time, for the delivery latency. Off while an API
  // instance older than this setting still runs (it would pass the stamp on to its dispatchers).
  DELIVERY_LATENCY_STAMP: z.enum(['on', 'off']).default('on'),
  /** Session keys in Redis expire this long after the session's last event. */
  SESSION_REDIS_TTL_SECONDS: int(7 * 24 * 3600),
  /** Above this many unsent bytes, a dispatcher socket gets only the latest event per caller. */
  DISPATCHER_HIGH_WATER_BYTES: int(64 * 1024),
  /** Sustained events per second from one caller socket, and the burst it may send at once (a page resending what it queued while offline). */
  CALLER_MAX_EVENTS_PER_SECOND: int(10),
  CALLER_EVENT_BURST: int(60),
  /**
   * How often the server pings dispatcher and caller sockets; one that missed the previous ping
   * is closed, so a phone that lost its network unseen stops counting as connected within two
   * periods. 0: no pings.
   */
  SOCKET_HEARTBEAT_MS: z.coerce.number().int().nonnegative().default(20_000),
  DISPATCHER_TOKEN_TTL_SECONDS: int(12 * 3600),
  /** The hard cap: no caller link works longer than this after it was sent, opened or not. */
  CALLER_TOKEN_TTL_SECONDS: int(24 * 3600),
  SHUTDOWN_TIMEOUT_MS: int(10_000),
  /**
   * On SIGTERM, how long the instance keeps serving while its health answers 503 `draining`,
   * before it closes: a load balancer that checks health takes it out of rotation first, so no
   * request (a POST is never retried) reaches an instance that refuses it. 0 where the
   * orchestrator does this itself (Kubernetes' preStop pause).
   */
  SHUTDOWN_DRAIN_MS: z.coerce.number().int().min(0).max(60_000).default(0),
  /** Overrides of the platform status thresholds, as JSON (see `StatusThresholdsJson`). */
  STATUS_THRESHOLDS: StatusThresholdsJson.default('{}'),

  // --- Accounts
  /** Lifetime of an e-mail confirmation link (and of a group invitation's set-password link). */
  EMAIL_CONFIRMATION_TTL_SECONDS: int(7 * 24 * 3600),
  /** Lifetime of a password reset link. */
  PASSWORD_RESET_TTL_SECONDS: int(3600),
  /**
   * Encrypts authenticator-app secrets at rest (AES-256-GCM; the key is the SHA-256 of this
   * text). The default is for development only: in production the API refuses to start with it.
   */
  MFA_ENCRYPTION_KEY: z.string().min(16).default(DEV_MFA_ENCRYPTION_KEY),
  /** The WebAuthn relying party's id (a domain, no scheme or port); default: PUBLIC_URL's host. */
  WEBAUTHN_RP_ID: z.string().min(1).optional(),
  /** The origin passkeys are used from (scheme, host, port); default: PUBLIC_URL's origin. */
  WEBAUTHN_ORIGIN: z.string().url().optional(),
  /** The name the browser shows when a passkey is created. */
  WEBAUTHN_RP_NAME: z.string().min(1).default('Locus'),
  /** CJIS 5.5.5: a console session with no activity this long is signed out (teams may set their own). */
  SESSION_IDLE_TIMEOUT_SECONDS: int(30 * 60),
  /** How long before the idle sign-out the console warns (at most half the timeout). */
  SESSION_IDLE_WARNING_SECONDS: int(60),
  /** Requests per client address and auth endpoint in each window. */
  AUTH_RATE_LIMIT_MAX: int(30),
  AUTH_RATE_LIMIT_WINDOW_SECONDS: int(60),
  /**
   * Failed sign-ins from one client address on one account before each further attempt on that
   * account from there must wait 1, 2, 4 … seconds, at most SIGN_IN_MAX_DELAY_SECONDS (one short
   * of the account's lock, the address waits out the ten-minute window for that account).
   * Nobody else behind the address is delayed.
   */
  SIGN_IN_FAILURES_PER_ADDRESS: int(3),
  /** Different accounts one address may fail against in ten minutes; further ones wait it out. */
  SIGN_IN_ACCOUNTS_PER_ADDRESS: int(5),
  /** Failures from a /24 (IPv6 /64) in ten minutes after which sign-in there needs the captcha. */
  SIGN_IN_FAILURES_PER_SUBNET: int(10),
  SIGN_IN_MAX_DELAY_SECONDS: int(30),
  CAPTCHA_PROVIDER: z.enum(['off', 'turnstile', 'hcaptcha']).default('off'),
  CAPTCHA_SITE_KEY: z.string().optional(),
  CAPTCHA_SECRET_KEY: z.string().optional(),
  /** Defaults to the provider's siteverify endpoint. */
  CAPTCHA_VERIFY_URL: optionalUrl,
  COAST_GUARD_EMAIL_DOMAIN: z
    .string()
    .trim()
    .toLowerCase()
    .regex(/^[a-z0-9.-]+\.[a-z]{2,}$/, 'must be a domain like uscg.mil')
    .default('uscg.mil'),
  /** An extra regular expression (case-insensitive) for coast-guard aliases. */
  COAST_GUARD_EMAIL_PATTERN: z
    .string()
    .optional()
    .refine(
      (pattern) => pattern === undefined || isRegExp(pattern),
      'must be a regular expression',
    ),

  // --- E-mail (the worker sends; the API writes the rows and the dev outbox reads them)
  EMAIL_PROVIDER: z.enum(['outbox', 'smtp']).default('outbox'),
  /**
   * `on` serves GET /api/v1/dev/outbox/* to anyone: every reset and caller link in clear. Only
   * for a demo or tests (npm start and the test stacks set it); refused with a real provider
   * or in production.
   */
  DEV_OUTBOX: z.enum(['on', 'off']).default('off'),
  DEMO_REQUEST_NOTIFY_EMAIL: z.string().email().default('sales@locus.test'),

  // --- The public site
  /** Set it to an empty value to hide the video. */
  DEMO_VIDEO_URL: z
    .string()
    .default('https://interactive-examples.mdn.mozilla.net/media/cc0-videos/flower.mp4')
    .transform((url) => url || undefined)
    .pipe(z.string().url().optional()),
  CHAT_ASSISTANT_SCRIPT_URL: optionalUrl,
  SUPPORT_WIDGET_SCRIPT_URL: optionalUrl,
  FAQ_URL: z.string().url().default('https://locus.example.com/faq'),
  HELP_CENTRE_URL: z.string().url().default('https://locus.example.com/help'),
  SUPPORT_URL: z.string().url().default('https://locus.example.com/support'),
  CAREERS_URL: z.string().url().default('https://locus.example.com/careers'),
  SOCIAL_LINKS: SocialLinks.default(defaultSocialLinks),
  TRAINING_VIDEOS_URL: optionalUrl,

  // --- Training videos (issue 14)
  /**
   * The deployment's training videos: a JSON array of `{ id, title, description, url,
   * captionsUrl?, durationSeconds? }`, checked at boot. The default lists Locus's own short clips.
   */
  TRAINING_VIDEOS_FILE: z
    .string()
    .min(1)
    .default(fileURLToPath(new URL('../training/videos.json', import.meta.url))),
  /** Served at `/training-media/` (with Range requests, so players can seek): self-hosted videos and captions. */
  TRAINING_MEDIA_DIR: z
    .string()
    .min(1)
    .default(fileURLToPath(new URL('../training/media', import.meta.url))),

  // --- Tracking
  /** `outbox` keeps text messages in the database (see the dev outbox); `twilio` sends them. */
  SMS_PROVIDER: z.enum(['outbox', 'twilio']).default('outbox'),
  /** Twilio's auth token: inbound messages and status callbacks must be signed with it. */
  TWILIO_AUTH_TOKEN: z.string().optional(),
  /**
   * The number Locus texts from (the worker sends from it too). The caller's page offers to text
   * its position back to it when the internet does not get it through; unset with Twilio, the
   * page does not offer it.
   */
  TWILIO_FROM: z.string().optional(),
  /**
   * With the outbox provider: the number the caller's page offers to text back to (the demo's
   * replies are typed into the dev outbox, which hands them to the inbound handler).
   */
  OUTBOX_SMS_NUMBER: z.string().default('+15005550006'),
  /** How long the caller's page waits for an acknowledged fix before offering to text it. */
  CALLER_TEXT_FALLBACK_AFTER_MS: int(20_000),
  /** How long the API waits for an automatic lookup before the dispatcher is offered a text message. */
  LOOKUP_WAIT_MS: int(8_000),
  /** How long a text-message request waits for the provider's answer before answering "queued". */
  SMS_WAIT_MS: int(10_000),
  /**
   * Practice mode (issue 14): the time between two steps of a scripted caller (a fix of the walk,
   * a change of mind), in ms. The whole script takes 18 steps; tests run it faster.
   */
  PRACTICE_PACE_MS: int(2_000),
  /**
   * Texts one user may send per SMS_RATE_LIMIT_WINDOW_SECONDS (each number of a many-number
   * request counts). Two full 50-number call-list deployments plus re-texts fit; a stolen
   * account cannot spam callers in the name of emergency services.
   */
  SMS_RATE_LIMIT_PER_USER: int(120),
  /** Texts one team may send per window, all its dispatchers together (a busy centre's peak). */
  SMS_RATE_LIMIT_PER_TEAM: int(600),
  /** The window of the two SMS limits; beyond either, 429 `rate-limited` with Retry-After. */
  SMS_RATE_LIMIT_WINDOW_SECONDS: int(600),
  /**
   * Requests one partner API key may make per minute, its OAuth tokens' included (issue 15);
   * beyond it, 429 with Retry-After. Every partner answer says what is left (`RateLimit-*`).
   */
  PARTNER_RATE_LIMIT_PER_MINUTE: int(300),
  /**
   * `true` lets a team register a plain http: webhook endpoint (a local receiver, tests); the
   * worker's WEBHOOK_ALLOW_HTTP must agree to send to it. Refused in production.
   */
  WEBHOOK_ALLOW_HTTP: z.enum(['true', 'false']).default('false'),
  /** A caller link not opened within this many seconds expires. */
  CALLER_LINK_OPEN_WITHIN_SECONDS: int(2 * 3600),
  /**
   * How long a case-transfer offer stands before it expires and the case stays (the contract's
   * `caseTransferOfferTtlMs`, 60 s; browser tests use a short one).
   */
  CASE_TRANSFER_OFFER_TTL_MS: int(60_000),

  // --- Chat translation (issue 12)
  /**
   * The engine that translates chat messages: `apertium` (offline, Debian's packages; the
   * default), a `libretranslate`-compatible server, `deepl`, or `none` (every message is shown
   * as written, marked "not translated").
   */
  TRANSLATION_PROVIDER: z.enum(['apertium', 'libretranslate', 'deepl', 'none']).default('apertium'),
  /** The LibreTranslate-compatible server's base URL; required with TRANSLATION_PROVIDER=libretranslate. */
  LIBRETRANSLATE_URL: optionalUrl,
  /** Sent as `api_key` to a LibreTranslate server that asks for one. */
  LIBRETRANSLATE_API_KEY: z.string().optional(),
  /** DeepL's API: api-free.deepl.com for a free key, api.deepl.com for a paid one. */
  DEEPL_API_URL: z.string().url().default('https://api-free.deepl.com'),
  /** DeepL's authentication key; required with TRANSLATION_PROVIDER=deepl. */
  DEEPL_API_KEY: z.string().optional(),

  // --- Live video (issue 19)
  /**
   * TURN servers the caller's and dispatcher's browsers relay video through when no direct path
   * exists (most mobile networks): comma-separated `turn:` / `turns:` URLs. Unset: no TURN, and
   * video works only where the two browsers reach each other directly.
   */
  TURN_URLS: iceUrlList(['turn:', 'turns:']),
  /** The coturn `static-auth-secret` the API mints short-lived TURN credentials with. */
  TURN_SECRET: z.string().min(16).optional(),
  /** STUN servers, comma-separated `stun:` URLs. Unset: none (a TURN server answers STUN too). */
  STUN_URLS: iceUrlList(['stun:', 'stuns:']),

  // --- The dispatcher map
  /** A Leaflet tile URL template; a path on this server (e.g. the blank `/map-tiles/blank.png`) works offline. */
  MAP_TILE_URL: z.string().min(1).default('https://tile.openstreetmap.org/{z}/{x}/{y}.png'),
  MAP_TILE_ATTRIBUTION: z
    .string()
    .default(
      '&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors',
    ),
  /**
   * Vector tiles from one PMTiles archive (a Protomaps basemap build), ahead of MAP_TILE_URL: an
   * http(s) URL the browser reads directly, or a file on this server, served at
   * `/map-data/basemap.pmtiles`. Unset or empty: raster tiles from MAP_TILE_URL.
   */
  MAP_PMTILES_URL: z
    .string()
    .optional()
    .transform((value) => value || undefined),

  // --- Photos and recordings (issue 19): MEDIA_*, S3_*, in modules/media/storage.ts
  ...mediaConfigShape,
});
export type ApiConfig = z.infer<typeof ApiConfig>;

function isNetworkList(text: string): boolean {
  try {
    networkList(text);
    return true;
  } catch {
    return false;
  }
}

function isRegExp(pattern: string): boolean {
  try {
    new RegExp(pattern, 'i');
    return true;
  } catch {
    return false;
  }
}

/** Settings that only make sense together (kept out of the schema so its shape stays listable). */
function crossChecks(config: ApiConfig): string[] {
  const problems: string[] = [];
  // A key everyone can read in this repository protects nobody's authenticator secrets.
  if (config.NODE_ENV === 'production' && config.MFA_ENCRYPTION_KEY === DEV_MFA_ENCRYPTION_KEY)
    problems.push('  MFA_ENCRYPTION_KEY: set a secret of your own in production');
  problems.push(...mediaConfigProblems(config));
  if (config.CAPTCHA_PROVIDER !== 'off') {
    if (!config.CAPTCHA_SITE_KEY) problems.push('  CAPTCHA_SITE_KEY: required with a captcha');
    if (!config.CAPTCHA_SECRET_KEY) problems.push('  CAPTCHA_SECRET_KEY: required with a captcha');
  }
  if (config.DEV_OUTBOX === 'on') {
    // The outbox would publish real people's reset and caller links to anonymous visitors.
    if (config.EMAIL_PROVIDER !== 'outbox' || config.SMS_PROVIDER !== 'outbox')
      problems.push('  DEV_OUTBOX: must be off with a real e-mail or SMS provider');
    if (config.NODE_ENV === 'production') problems.push('  DEV_OUTBOX: must be off in production');
  }
  if (config.NODE_ENV === 'production' && config.WEBHOOK_ALLOW_HTTP === 'true')
    problems.push('  WEBHOOK_ALLOW_HTTP: must be false in production');
  if (config.SMS_PROVIDER === 'twilio') {
    // Without them STOP would never be recorded and texted links would point at localhost.
    if (!config.TWILIO_AUTH_TOKEN)
      problems.push('  TWILIO_AUTH_TOKEN: required with SMS_PROVIDER=twilio');
    if (!config.PUBLIC_URL) problems.push('  PUBLIC_URL: required with SMS_PROVIDER=twilio');
  }
  // Credentials minted without the server's secret would all be refused.
  if (config.TURN_URLS.length > 0 && !config.TURN_SECRET)
    problems.push('  TURN_SECRET: required with TURN_URLS');
  if (config.TRANSLATION_PROVIDER === 'libretranslate' && !config.LIBRETRANSLATE_URL)
    problems.push('  LIBRETRANSLATE_URL: required with TRANSLATION_PROVIDER=libretranslate');
  if (config.TRANSLATION_PROVIDER === 'deepl' && !config.DEEPL_API_KEY)
    problems.push('  DEEPL_API_KEY: required with TRANSLATION_PROVIDER=deepl');
  // A broken training list is found at boot, not by the first dispatcher who opens /training.
  for (const problem of trainingCatalogueProblems(
    config.TRAINING_VIDEOS_FILE,
    config.TRAINING_MEDIA_DIR,
  ).problems)
    problems.push(`  TRAINING_VIDEOS_FILE: ${problem}`);
  // A missing archive would leave every dispatcher on the offline map without a word at boot.
  const pmtiles = pmtilesLocation(config.MAP_PMTILES_URL);
  if (pmtiles?.kind === 'file' && !isFile(pmtiles.file))
    problems.push(`  MAP_PMTILES_URL: no such file: ${pmtiles.file}`);
  if (pmtiles?.kind === 'url' && !URL.canParse(pmtiles.url))
    problems.push('  MAP_PMTILES_URL: not a valid URL');
  // Credentials in a URL end up in logs and error messages; the API keys have their own settings.
  for (const name of ['LIBRETRANSLATE_URL', 'DEEPL_API_URL'] as const) {
    const value = config[name];
    if (value && hasCredentials(value))
      problems.push(
        `  ${name}: must not contain a user name or password (use the API key setting)`,
      );
  }
  return problems;
}

function hasCredentials(url: string): boolean {
  try {
    const parsed = new URL(url);
    return parsed.username !== '' || parsed.password !== '';
  } catch {
    return false;
  }
}

export function parseConfig(env: NodeJS.ProcessEnv = process.env): ApiConfig {
  const result = ApiConfig.safeParse(env);
  const problems = result.success
    ? crossChecks(result.data)
    : result.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
  if (!result.success || problems.length > 0) {
    throw new Error(`Invalid API configuration:\n${problems.join('\n')}\nSee .env.example.`);
  }
  return result.data;
}

/** The address users reach Locus at, for links in e-mails; no trailing slash. */
export function publicUrl(config: ApiConfig): string {
  return (config.PUBLIC_URL ?? `http://localhost:${config.PORT}`).replace(/\/+$/, '');
}

/** The WebAuthn relying party: its id, name and the origin passkeys are used from. */
export function webAuthnRelyingParty(config: ApiConfig): {
  rpID: string;
  rpName: string;
  origin: string;
} {
  const url = new URL(config.WEBAUTHN_ORIGIN ?? publicUrl(config));
  return {
    rpID: config.WEBAUTHN_RP_ID ?? url.hostname,
    rpName: config.WEBAUTHN_RP_NAME,
    origin: url.origin,
  };
}
