import type { ApiConfig } from '../../config';

/** Checks the token a captcha widget gave the browser. */
export interface CaptchaVerifier {
  readonly provider: 'off' | 'turnstile' | 'hcaptcha';
  /** True when the request may proceed. */
  verify(token: string | undefined, remoteIp: string): Promise<boolean>;
}

/** The default: no captcha, every request passes. */
export const captchaOff: CaptchaVerifier = {
  provider: 'off',
  verify: async () => true,
};

/** The vendors' siteverify endpoints (Cloudflare Turnstile and hCaptcha documentation). */
export const siteverifyUrls = {
  turnstile: 'https://challenges.cloudflare.com/turnstile/v0/siteverify',
  hcaptcha: 'https://api.hcaptcha.com/siteverify',
} as const;

const TIMEOUT_MS = 5_000;

/**
 * Turnstile and hCaptcha verify the same way: POST the secret, the widget's response token and
 * optionally the visitor's address as a form to the siteverify URL; the JSON answer has
 * `success`. hCaptcha also takes the site key, to refuse tokens issued for another site.
 * Anything but a clear success fails: a captcha that cannot be checked does not let a bot in.
 */
export function siteverifyCaptcha(options: {
  provider: 'turnstile' | 'hcaptcha';
  secretKey: string;
  siteKey: string;
  verifyUrl?: string;
  onError?: (error: unknown) => void;
}): CaptchaVerifier {
  const url = options.verifyUrl ?? siteverifyUrls[options.provider];
  return {
    provider: options.provider,
    async verify(token, remoteIp) {
      if (!token) return false;
      const form = new URLSearchParams({
        secret: options.secretKey,
        response: token,
        remoteip: remoteIp,
      });
      if (options.provider === 'hcaptcha') form.set('sitekey', options.siteKey);
      try {
        const response = await fetch(url, {
          method: 'POST',
          body: form,
          signal: AbortSignal.timeout(TIMEOUT_MS),
        });
        if (!response.ok) throw new Error(`siteverify answered ${response.status}`);
        const body = (await response.json()) as { success?: unknown };
        return body.success === true;
      } catch (error) {
        options.onError?.(error);
        return false;
      }
    },
  };
}

export function captchaFromConfig(
  config: Pick<
    ApiConfig,
    'CAPTCHA_PROVIDER' | 'CAPTCHA_SECRET_KEY' | 'CAPTCHA_SITE_KEY' | 'CAPTCHA_VERIFY_URL'
  >,
  onError?: (error: unknown) => void,
): CaptchaVerifier {
  if (config.CAPTCHA_PROVIDER === 'off') return captchaOff;
  return siteverifyCaptcha({
    provider: config.CAPTCHA_PROVIDER,
    secretKey: config.CAPTCHA_SECRET_KEY ?? '',
    siteKey: config.CAPTCHA_SITE_KEY ?? '',
    verifyUrl: config.CAPTCHA_VERIFY_URL,
    onError,
  });
}
