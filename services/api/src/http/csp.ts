import type { ApiConfig } from '../config';
import { pmtilesLocation } from '../modules/map-data/location';

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
 * A tile server on plain http (common on a closed network) must be named: `https:` covers only
 * the others. `{s}` (Leaflet's subdomains) becomes a wildcard host.
 */
function plainHttpTiles(template: string | undefined): string[] {
  if (!template || !/^http:\/\//i.test(template)) return [];
  try {
    const host = new URL(template.replace('{s}', 'subdomain')).origin;
    return [template.includes('{s}') ? host.replace('//subdomain.', '//*.') : host];
  } catch {
    return [];
  }
}

/**
 * The Content-Security-Policy directives that differ from helmet's defaults: our own origin,
 * plus exactly the third parties the configuration turns on (widgets, captcha, demo video, and
 * the training videos hosted elsewhere: `mediaOrigins`).
 */
export function contentSecurityDirectives(
  config: Pick<
    ApiConfig,
    | 'CAPTCHA_PROVIDER'
    | 'CHAT_ASSISTANT_SCRIPT_URL'
    | 'SUPPORT_WIDGET_SCRIPT_URL'
    | 'DEMO_VIDEO_URL'
    | 'MAP_PMTILES_URL'
  > &
    Partial<Pick<ApiConfig, 'MAP_TILE_URL'>>,
  extra: { mediaOrigins?: string[] } = {},
): Directives {
  const captcha = [...captchaSources[config.CAPTCHA_PROVIDER]];
  const widgets = [
    ...origin(config.CHAT_ASSISTANT_SCRIPT_URL),
    ...origin(config.SUPPORT_WIDGET_SCRIPT_URL),
  ];
  const video = origin(config.DEMO_VIDEO_URL);
  // A PMTiles archive elsewhere is read with fetch (byte ranges), not as images.
  const pmtiles = pmtilesLocation(config.MAP_PMTILES_URL);
  const mapData = pmtiles?.kind === 'url' ? origin(pmtiles.url) : [];
  const unique = (sources: string[]) => [...new Set(sources)];
  return {
    'script-src': unique(["'self'", ...captcha, ...widgets]),
    'frame-src': unique(["'self'", ...captcha, ...widgets, ...video]),
    'media-src': unique(["'self'", ...video, ...(extra.mediaOrigins ?? [])]),
    // Map tiles come from a configurable tile server; fixes travel over our own socket.
    'img-src': unique(["'self'", 'data:', 'https:', ...plainHttpTiles(config.MAP_TILE_URL)]),
    'connect-src': unique(["'self'", 'ws:', 'wss:', ...captcha, ...widgets, ...mapData]),
  };
}
