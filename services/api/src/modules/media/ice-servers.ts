import { mediaLimits, type IceServer } from '@locus/contract';
import { createHmac } from 'node:crypto';
import type { ApiConfig } from '../../config';

export type IceConfig = Pick<ApiConfig, 'TURN_URLS' | 'TURN_SECRET' | 'STUN_URLS'>;

/**
 * A TURN credential by the TURN REST API scheme (draft-uberti-behave-turn-rest), which coturn
 * checks with `use-auth-secret` and the same `static-auth-secret`: the username is the expiry
 * (Unix seconds) and a label, the password the base64 HMAC-SHA1 of the username. Nothing is
 * stored: coturn recomputes the HMAC and refuses an expired username, so a credential that
 * leaks stops working on its own.
 */
export function turnCredential(
  secret: string,
  sessionId: string,
  nowMs: number,
  lifetimeSeconds: number = mediaLimits.turnCredentialSeconds,
): { username: string; credential: string } {
  const expiresAt = Math.floor(nowMs / 1000) + lifetimeSeconds;
  // The session as the label: coturn logs it with each allocation, so relayed traffic can be
  // traced to its session.
  const username = `${expiresAt}:${sessionId}`;
  const credential = createHmac('sha1', secret).update(username).digest('base64');
  return { username, credential };
}

/**
 * The ICE servers a browser of this session connects with: the STUN servers, then the TURN
 * servers with a credential minted now. Without TURN_URLS there is no relay (and without
 * STUN_URLS, only host candidates and whatever the TURN server reflects).
 */
export function iceServersFor(
  config: IceConfig,
  sessionId: string,
  nowMs: number = Date.now(),
): IceServer[] {
  const servers: IceServer[] = [];
  if (config.STUN_URLS.length > 0) servers.push({ urls: config.STUN_URLS.slice(0, 8) });
  if (config.TURN_URLS.length > 0 && config.TURN_SECRET)
    servers.push({
      urls: config.TURN_URLS.slice(0, 8),
      ...turnCredential(config.TURN_SECRET, sessionId, nowMs),
    });
  return servers;
}
