import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captchaFromConfig, captchaOff } from './captcha';

/** A stand-in for the vendors' siteverify endpoint: accepts the token "pass" only. */
let server: Server;
let url: string;
const received: URLSearchParams[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const form = new URLSearchParams(body);
      received.push(form);
      if (form.get('response') === 'broken') {
        response.writeHead(500).end();
        return;
      }
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify({ success: form.get('response') === 'pass' }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/siteverify`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('captcha', () => {
  it('is off by default and lets everything through', async () => {
    expect(captchaFromConfig({ CAPTCHA_PROVIDER: 'off' })).toBe(captchaOff);
    expect(await captchaOff.verify(undefined, '127.0.0.1')).toBe(true);
  });

  it('posts the secret, the token and the address to Turnstile, and trusts only success', async () => {
    const turnstile = captchaFromConfig({
      CAPTCHA_PROVIDER: 'turnstile',
      CAPTCHA_SECRET_KEY: 'secret-1',
      CAPTCHA_SITE_KEY: 'site-1',
      CAPTCHA_VERIFY_URL: url,
    });
    expect(await turnstile.verify('pass', '203.0.113.9')).toBe(true);
    expect(Object.fromEntries(received.at(-1)!)).toEqual({
      secret: 'secret-1',
      response: 'pass',
      remoteip: '203.0.113.9',
    });
    expect(await turnstile.verify('fail', '203.0.113.9')).toBe(false);
    expect(await turnstile.verify(undefined, '203.0.113.9')).toBe(false);
  });

  it('sends hCaptcha the site key too', async () => {
    const hcaptcha = captchaFromConfig({
      CAPTCHA_PROVIDER: 'hcaptcha',
      CAPTCHA_SECRET_KEY: 'secret-2',
      CAPTCHA_SITE_KEY: 'site-2',
      CAPTCHA_VERIFY_URL: url,
    });
    expect(await hcaptcha.verify('pass', '198.51.100.7')).toBe(true);
    expect(received.at(-1)!.get('sitekey')).toBe('site-2');
  });

  it('fails closed when the vendor cannot be reached or errs', async () => {
    const errors: unknown[] = [];
    const broken = captchaFromConfig(
      {
        CAPTCHA_PROVIDER: 'turnstile',
        CAPTCHA_SECRET_KEY: 's',
        CAPTCHA_SITE_KEY: 'k',
        CAPTCHA_VERIFY_URL: url,
      },
      (error) => errors.push(error),
    );
    expect(await broken.verify('broken', '127.0.0.1')).toBe(false);
    const unreachable = captchaFromConfig({
      CAPTCHA_PROVIDER: 'turnstile',
      CAPTCHA_SECRET_KEY: 's',
      CAPTCHA_SITE_KEY: 'k',
      CAPTCHA_VERIFY_URL: 'http://127.0.0.1:1/siteverify',
    });
    expect(await unreachable.verify('pass', '127.0.0.1')).toBe(false);
    expect(errors).toHaveLength(1);
  });
});
