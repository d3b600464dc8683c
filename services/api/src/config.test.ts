import { describe, expect, it } from 'vitest';
import { parseConfig, publicUrl } from './config';

const minimal = {
  DATABASE_URL: 'postgres://u:p@localhost:5432/locus',
  REDIS_URL: 'redis://localhost:6379',
};

describe('parseConfig', () => {
  it('fills in the documented defaults', () => {
    const config = parseConfig(minimal);
    expect(config).toMatchObject({
      PORT: 3000,
      REDIS_KEY_PREFIX: 'locus:',
      TRUST_PROXY: false,
      FIX_BATCH_MAX_ROWS: 500,
      FIX_BATCH_MAX_DELAY_MS: 100,
      EMAIL_CONFIRMATION_TTL_SECONDS: 7 * 24 * 3600,
      PASSWORD_RESET_TTL_SECONDS: 3600,
      CAPTCHA_PROVIDER: 'off',
      COAST_GUARD_EMAIL_DOMAIN: 'uscg.mil',
      EMAIL_PROVIDER: 'outbox',
      DEMO_REQUEST_NOTIFY_EMAIL: 'sales@locus.test',
    });
    expect(config.SOCIAL_LINKS.length).toBeGreaterThan(0);
    expect(publicUrl(config)).toBe('http://localhost:3000');
  });

  it('refuses the development MFA key in production, and accepts an own one', () => {
    expect(() => parseConfig({ ...minimal, NODE_ENV: 'production' })).toThrow(
      /MFA_ENCRYPTION_KEY: set a secret of your own in production/,
    );
    const own = 'a-secret-of-our-own-2026';
    // The media URL secret has the same rule (issue 19): both must be set.
    const production = { ...minimal, NODE_ENV: 'production', MFA_ENCRYPTION_KEY: own };
    expect(() => parseConfig(production)).toThrow(
      /MEDIA_URL_SECRET: set a secret of your own in production/,
    );
    const config = parseConfig({ ...production, MEDIA_URL_SECRET: 'media-secret-of-our-own' });
    expect(config.MFA_ENCRYPTION_KEY).toBe(own);
    expect(config.MEDIA_URL_SECRET).toBe('media-secret-of-our-own');
  });

  it('names every bad or missing setting', () => {
    expect(() => parseConfig({ PORT: 'eighty' })).toThrow(
      /DATABASE_URL[\s\S]*REDIS_URL|REDIS_URL[\s\S]*DATABASE_URL/,
    );
    expect(() => parseConfig({ ...minimal, PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => parseConfig({ ...minimal, SOCIAL_LINKS: '[{"name":"X"}' })).toThrow(
      /SOCIAL_LINKS/,
    );
    expect(() => parseConfig({ ...minimal, COAST_GUARD_EMAIL_PATTERN: '(' })).toThrow(
      /COAST_GUARD_EMAIL_PATTERN/,
    );
  });

  it('refuses translation URLs with credentials in them', () => {
    expect(() =>
      parseConfig({
        ...minimal,
        TRANSLATION_PROVIDER: 'libretranslate',
        LIBRETRANSLATE_URL: 'https://user:secret@translate.example',
      }),
    ).toThrow(/LIBRETRANSLATE_URL: must not contain a user name or password/);
    expect(() =>
      parseConfig({ ...minimal, DEEPL_API_URL: 'https://key@api.deepl.example' }),
    ).toThrow(/DEEPL_API_URL/);
    expect(
      parseConfig({
        ...minimal,
        TRANSLATION_PROVIDER: 'libretranslate',
        LIBRETRANSLATE_URL: 'https://translate.example',
      }).LIBRETRANSLATE_URL,
    ).toBe('https://translate.example');
  });

  it('needs both captcha keys once a captcha is on', () => {
    expect(() => parseConfig({ ...minimal, CAPTCHA_PROVIDER: 'turnstile' })).toThrow(
      /CAPTCHA_SITE_KEY[\s\S]*CAPTCHA_SECRET_KEY/,
    );
    const config = parseConfig({
      ...minimal,
      CAPTCHA_PROVIDER: 'hcaptcha',
      CAPTCHA_SITE_KEY: 'site',
      CAPTCHA_SECRET_KEY: 'secret',
    });
    expect(config.CAPTCHA_PROVIDER).toBe('hcaptcha');
  });

  it('reads TRUST_PROXY as a flag, a hop count or addresses', () => {
    expect(parseConfig({ ...minimal, TRUST_PROXY: 'true' }).TRUST_PROXY).toBe(true);
    expect(parseConfig({ ...minimal, TRUST_PROXY: '2' }).TRUST_PROXY).toBe(2);
    expect(parseConfig({ ...minimal, TRUST_PROXY: '10.0.0.0/8' }).TRUST_PROXY).toBe('10.0.0.0/8');
  });

  it('hides the demo video when DEMO_VIDEO_URL is empty, and drops a trailing slash of PUBLIC_URL', () => {
    expect(parseConfig({ ...minimal, DEMO_VIDEO_URL: '' }).DEMO_VIDEO_URL).toBeUndefined();
    expect(publicUrl(parseConfig({ ...minimal, PUBLIC_URL: 'https://locus.example.org/' }))).toBe(
      'https://locus.example.org',
    );
  });
});
