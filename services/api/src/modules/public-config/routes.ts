import { publicConfigContract, type PublicConfig } from '@locus/contract';
import type { FastifyInstance } from 'fastify';
import type { ApiConfig } from '../../config';
import { registerContract } from '../../http/contract-routes';
import { pmtilesBrowserUrl } from '../map-data/location';

export function coastGuardConfig(config: ApiConfig): PublicConfig['coastGuard'] {
  return {
    emailDomain: config.COAST_GUARD_EMAIL_DOMAIN,
    aliasPattern: config.COAST_GUARD_EMAIL_PATTERN ?? null,
  };
}

/** Everything the web app needs before sign-in; it changes only with a deployment. */
export function publicConfig(config: ApiConfig): PublicConfig {
  return {
    coastGuard: coastGuardConfig(config),
    captcha:
      config.CAPTCHA_PROVIDER === 'off'
        ? { provider: 'off' }
        : { provider: config.CAPTCHA_PROVIDER, siteKey: config.CAPTCHA_SITE_KEY ?? '' },
    demoVideoUrl: config.DEMO_VIDEO_URL ?? null,
    chatAssistantScriptUrl: config.CHAT_ASSISTANT_SCRIPT_URL ?? null,
    supportWidgetScriptUrl: config.SUPPORT_WIDGET_SCRIPT_URL ?? null,
    map: {
      tileUrl: config.MAP_TILE_URL,
      attribution: config.MAP_TILE_ATTRIBUTION,
      pmtilesUrl: pmtilesBrowserUrl(config.MAP_PMTILES_URL),
    },
    links: {
      faq: config.FAQ_URL,
      helpCentre: config.HELP_CENTRE_URL,
      trainingVideos: config.TRAINING_VIDEOS_URL ?? null,
      support: config.SUPPORT_URL,
      careers: config.CAREERS_URL,
      social: config.SOCIAL_LINKS,
    },
  };
}

export function publicConfigRoutes(app: FastifyInstance, config: ApiConfig): void {
  const body = publicConfig(config);
  registerContract(app, publicConfigContract, {
    get: async () => ({ status: 200, body }),
  });
}
