import { describe, expect, it } from 'vitest';
import { contentSecurityDirectives } from './csp';

describe('the content security policy', () => {
  it('allows only our own origin when no third party is configured', () => {
    const directives = contentSecurityDirectives({
      CAPTCHA_PROVIDER: 'off',
      DEMO_VIDEO_URL: undefined,
    });
    expect(directives['script-src']).toEqual(["'self'"]);
    expect(directives['frame-src']).toEqual(["'self'"]);
  });

  it('allows the configured widgets, captcha and demo video, by origin', () => {
    const directives = contentSecurityDirectives({
      CAPTCHA_PROVIDER: 'turnstile',
      CHAT_ASSISTANT_SCRIPT_URL: 'https://chat.example.com/widget.js?id=1',
      SUPPORT_WIDGET_SCRIPT_URL: 'https://support.example.net/loader.js',
      DEMO_VIDEO_URL: 'https://videos.example.org/demo.mp4',
    });
    expect(directives['script-src']).toEqual([
      "'self'",
      'https://challenges.cloudflare.com',
      'https://chat.example.com',
      'https://support.example.net',
    ]);
    expect(directives['media-src']).toEqual(["'self'", 'https://videos.example.org']);
    expect(directives['frame-src']).toContain('https://videos.example.org');
  });
});
