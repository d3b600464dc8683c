import { describe, expect, it } from 'vitest';
import { ApiConfig, parseConfig } from '../../config';
import { REDACTED, isSecretName, redactConfig, redactUrlCredentials } from './redact-config';
import { scrubReason } from './service';

/** Every secret below; none may appear anywhere in what the console is sent. */
const secrets = [
  'pg-Pa55word',
  'redis-pa55',
  'mfa-encryption-key-0123456789',
  'captcha-secret-xyz',
  'captcha-site-key-abc',
  'twilio-auth-token-987',
  'ghp_tokenAsUserName',
  'smtp-pw@with-at',
  'query-secret-value',
  'stripe-private-key',
  'aws-credential-id',
  'sentry-dsn-key',
  'link-pa55',
  'media-url-secret-456',
  'turn-shared-secret-789',
];

/** A configuration full of secrets, as the API parses it, plus settings a later issue may add. */
function configFullOfSecrets(): Record<string, unknown> {
  const parsed = parseConfig({
    NODE_ENV: 'production',
    DATABASE_URL: 'postgres://locus:pg-Pa55word@db.internal:5432/locus?sslmode=require',
    REDIS_URL: 'redis://:redis-pa55@redis.internal:6379/0',
    PUBLIC_URL: 'https://locus.example.com',
    MFA_ENCRYPTION_KEY: 'mfa-encryption-key-0123456789',
    MEDIA_URL_SECRET: 'media-url-secret-456',
    TURN_URLS: 'turn:turn.example.com:3478?transport=udp',
    TURN_SECRET: 'turn-shared-secret-789',
    CAPTCHA_PROVIDER: 'turnstile',
    CAPTCHA_SECRET_KEY: 'captcha-secret-xyz',
    CAPTCHA_SITE_KEY: 'captcha-site-key-abc',
    CAPTCHA_VERIFY_URL: 'https://ghp_tokenAsUserName@captcha.example.com/verify',
    SMS_PROVIDER: 'twilio',
    EMAIL_PROVIDER: 'smtp',
    TWILIO_AUTH_TOKEN: 'twilio-auth-token-987',
    TWILIO_FROM: '+15005550006',
    FAQ_URL: 'https://help.example.com/faq?access_token=query-secret-value&lang=en',
    SOCIAL_LINKS: JSON.stringify([
      { name: 'YouTube', url: 'https://www.youtube.com/@example' },
      { name: 'Private', url: 'https://linkuser:link-pa55@links.example.com/x' },
    ]),
  });
  return {
    ...parsed,
    SMTP_URL: 'smtp://mailer:smtp-pw@with-at@smtp.internal:587',
    STRIPE_PRIVATE_KEY: 'stripe-private-key',
    AWS_CREDENTIALS: 'aws-credential-id',
    SENTRY_DSN: 'https://sentry-dsn-key@sentry.example.com/1',
  };
}

describe('redactConfig', () => {
  const config = configFullOfSecrets();
  const entries = redactConfig(config, Object.keys(ApiConfig.shape));
  const byKey = new Map(entries.map((entry) => [entry.key, entry]));

  it('shows no secret value anywhere in its output', () => {
    const output = JSON.stringify(entries);
    for (const secret of secrets) expect(output, secret).not.toContain(secret);
  });

  it('lists every key of the configuration, unset ones as null, values as text', () => {
    for (const key of [...Object.keys(ApiConfig.shape), ...Object.keys(config)])
      expect(byKey.has(key), key).toBe(true);
    expect(entries.map((entry) => entry.key)).toEqual([...byKey.keys()].sort());
    expect(byKey.get('WEBAUTHN_RP_ID')).toEqual({
      key: 'WEBAUTHN_RP_ID',
      value: null,
      redacted: false,
    });
    expect(byKey.get('PORT')).toEqual({ key: 'PORT', value: '3000', redacted: false });
    expect(byKey.get('SMS_PROVIDER')?.value).toBe('twilio');
    for (const entry of entries) expect(['string', 'object']).toContain(typeof entry.value);
  });

  it('redacts secret-named keys whole, and marks them', () => {
    for (const key of [
      'MFA_ENCRYPTION_KEY',
      'CAPTCHA_SECRET_KEY',
      'CAPTCHA_SITE_KEY',
      'TWILIO_AUTH_TOKEN',
      'STRIPE_PRIVATE_KEY',
      'AWS_CREDENTIALS',
      'SENTRY_DSN',
    ])
      expect(byKey.get(key), key).toEqual({ key, value: REDACTED, redacted: true });
  });

  it('replaces only the password of a URL, so that host and user stay readable', () => {
    expect(byKey.get('DATABASE_URL')).toEqual({
      key: 'DATABASE_URL',
      value: `postgres://locus:${REDACTED}@db.internal:5432/locus?sslmode=require`,
      redacted: true,
    });
    expect(byKey.get('REDIS_URL')?.value).toBe(`redis://:${REDACTED}@redis.internal:6379/0`);
    expect(byKey.get('SMTP_URL')?.value).toBe(`smtp://mailer:${REDACTED}@smtp.internal:587`);
    expect(byKey.get('CAPTCHA_VERIFY_URL')?.value).toBe(
      `https://${REDACTED}@captcha.example.com/verify`,
    );
    expect(byKey.get('FAQ_URL')?.value).toBe(
      `https://help.example.com/faq?access_token=${REDACTED}&lang=en`,
    );
  });

  it('leaves settings without secrets as they are', () => {
    expect(byKey.get('PUBLIC_URL')).toEqual({
      key: 'PUBLIC_URL',
      value: 'https://locus.example.com',
      redacted: false,
    });
    // Names that look secret but are a prefix, limits and lifetimes.
    expect(byKey.get('REDIS_KEY_PREFIX')).toEqual({
      key: 'REDIS_KEY_PREFIX',
      value: 'locus:',
      redacted: false,
    });
    expect(byKey.get('DISPATCHER_TOKEN_TTL_SECONDS')?.redacted).toBe(false);
    expect(byKey.get('WEBAUTHN_RP_NAME')).toEqual({
      key: 'WEBAUTHN_RP_NAME',
      value: 'Locus',
      redacted: false,
    });
    expect(byKey.get('SOCIAL_LINKS')?.value).toContain('https://www.youtube.com/@example');
  });
});

describe('redactUrlCredentials', () => {
  it('keeps an @ in a path, and a port before it', () => {
    for (const text of ['https://www.youtube.com/@example', 'https://host:8080/@team'])
      expect(redactUrlCredentials(text)).toEqual({ text, changed: false });
  });

  it('hides a token given as user name even when the path holds an @', () => {
    expect(redactUrlCredentials('https://tok3n@www.youtube.com/@example').text).toBe(
      `https://${REDACTED}@www.youtube.com/@example`,
    );
  });

  it('hides a password holding an unencoded slash', () => {
    expect(redactUrlCredentials('redis://:pa/ss@host:6379').text).toBe(
      `redis://:${REDACTED}@host:6379`,
    );
  });

  it('hides every password of a list of URLs', () => {
    const { text } = redactUrlCredentials('redis://:one@h1:6379,redis://:two@h2:6379');
    expect(text).not.toContain('one');
    expect(text).not.toContain('two');
  });

  it('names secrets broadly', () => {
    for (const name of ['SMTP_PASSWORD', 'S3_SECRET_ACCESS_KEY', 'SENTRY_AUTH_TOKEN', 'apikey'])
      expect(isSecretName(name), name).toBe(true);
    for (const name of ['PORT', 'LOG_LEVEL', 'REDIS_KEY_PREFIX'])
      expect(isSecretName(name), name).toBe(false);
  });
});

describe("a failed job's reason, as the console shows it", () => {
  it('hides a connection string password, an e-mail address and a phone number', () => {
    const reason = scrubReason(
      'connect ECONNREFUSED postgres://locus:hunter2@db:5432/locus while texting +12025550143 for ana@example.org',
    );
    expect(reason).not.toMatch(/hunter2|12025550143|ana@example\.org/);
    expect(reason).toContain('postgres://locus:');
  });
});
