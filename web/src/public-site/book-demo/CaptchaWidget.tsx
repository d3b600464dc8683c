import type { PublicConfig } from '@locus/contract';
import { useEffect, useRef } from 'react';

export type CaptchaSettings = Exclude<PublicConfig['captcha'], { provider: 'off' }>;

interface WidgetApi {
  render(
    element: HTMLElement,
    options: {
      sitekey: string;
      callback(token: string): void;
      'expired-callback'(): void;
      'error-callback'(): void;
    },
  ): string;
  remove?(widgetId: string): void;
}

declare global {
  interface Window {
    turnstile?: WidgetApi;
    hcaptcha?: WidgetApi;
  }
}

/** Explicit rendering, so that the widget appears where and when this component mounts. */
const scripts = {
  turnstile: 'https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit',
  hcaptcha: 'https://js.hcaptcha.com/1/api.js?render=explicit',
} as const;

const loading = new Map<string, Promise<void>>();

function loadScript(src: string): Promise<void> {
  let promise = loading.get(src);
  if (!promise) {
    promise = new Promise<void>((resolve, reject) => {
      const script = document.createElement('script');
      script.src = src;
      script.async = true;
      script.onload = () => resolve();
      script.onerror = () => {
        loading.delete(src);
        reject(new Error(`could not load ${src}`));
      };
      document.head.appendChild(script);
    });
    loading.set(src, promise);
  }
  return promise;
}

async function widgetApi(provider: CaptchaSettings['provider']): Promise<WidgetApi> {
  // The shell may already have loaded the vendor's script globally.
  const present = window[provider];
  if (present) return present;
  await loadScript(scripts[provider]);
  const loaded = window[provider];
  if (!loaded) throw new Error(`${provider} did not start`);
  return loaded;
}

/**
 * The captcha of the configured provider (Turnstile or hCaptcha). Reports a token when the
 * visitor passes, and null when it expires or fails. Remount it (change its key) for a new
 * token after each submission: tokens are single-use.
 */
export function CaptchaWidget({
  settings,
  onToken,
  onUnavailable,
}: {
  settings: CaptchaSettings;
  onToken(token: string | null): void;
  onUnavailable(): void;
}) {
  const container = useRef<HTMLDivElement>(null);
  const callbacks = useRef({ onToken, onUnavailable });
  useEffect(() => {
    callbacks.current = { onToken, onUnavailable };
  });

  useEffect(() => {
    let widgetId: string | undefined;
    let api: WidgetApi | undefined;
    let cancelled = false;
    widgetApi(settings.provider).then(
      (loaded) => {
        if (cancelled || !container.current) return;
        api = loaded;
        widgetId = loaded.render(container.current, {
          sitekey: settings.siteKey,
          callback: (token) => callbacks.current.onToken(token),
          'expired-callback': () => callbacks.current.onToken(null),
          'error-callback': () => callbacks.current.onToken(null),
        });
      },
      () => {
        if (!cancelled) callbacks.current.onUnavailable();
      },
    );
    return () => {
      cancelled = true;
      if (api && widgetId !== undefined) api.remove?.(widgetId);
    };
  }, [settings.provider, settings.siteKey]);

  return <div ref={container} data-testid="captcha" />;
}
