import type { ApiConfig } from '../config';

type Directives = Record<string, string[]>;

/** Where each captcha vendor's widget loads from (their CSP documentation). */
const captchaSources = {
  off: [],
  turnstile: ['https://challenges.cloudflare.com'],
  hcaptcha: ['https://hcaptcha.com', 'https://*.hcaptcha.com'],
} as const;

function origin(url: string | undefined): string[] {
  return url ? [new URL(url).origin] : [];
}

/**
 * The Content-Security-Policy directives that differ from helmet's defaults: our own origin,
 * plus exactly the third parties the configuration turns on (widgets, captcha, demo video).
 */
export function contentSecurityDirectives(
  config: Pick<
    ApiConfig,
    | 'CAPTCHA_PROVIDER'
    | 'CHAT_ASSISTANT_SCRIPT_URL'
    | 'SUPPORT_WIDGET_SCRIPT_URL'
    | 'DEMO_VIDEO_URL'
  >,
): Directives {
  const captcha = [...captchaSources[config.CAPTCHA_PROVIDER]];
  const widgets = [
    ...origin(config.CHAT_ASSISTANT_SCRIPT_URL),
    ...origin(config.SUPPORT_WIDGET_SCRIPT_URL),
  ];
  const video = origin(config.DEMO_VIDEO_URL);
  const unique = (sources: string[]) => [...new Set(sources)];
  return {
    'script-src': unique(["'self'", ...captcha, ...widgets]),
    'frame-src': unique(["'self'", ...captcha, ...widgets, ...video]),
    'media-src': unique(["'self'", ...video]),
    // Map tiles come from a configurable tile server; fixes travel over our own socket.
    'img-src': ["'self'", 'data:', 'https:'],
    'connect-src': unique(["'self'", 'ws:', 'wss:', ...captcha, ...widgets]),
  };
}
