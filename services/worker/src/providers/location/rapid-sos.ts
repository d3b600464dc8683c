import { setTimeout as wait } from 'node:timers/promises';
import { z } from 'zod';
import {
  LookupError,
  type LocationLookupProvider,
  type LookupResult,
  type ProviderLocation,
} from './provider';

export interface RapidSosConfig {
  /** e.g. https://api.rapidsos.com (no trailing slash). */
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  /** The whole lookup, token included; past it the dispatcher is offered a text message. */
  timeoutMs: number;
  /** How many 429s to wait out before giving up. */
  maxRateLimitRetries: number;
}

// What the provider answers. Anything else is treated as the provider being unavailable.
const TokenResponse = z.object({
  access_token: z.string().min(1),
  token_type: z.string().optional(),
  expires_in: z.coerce.number().positive(),
});
const LocationResponse = z.object({
  caller_id: z.string(),
  locations: z.array(
    z.object({
      latitude: z.number().finite().min(-90).max(90),
      longitude: z.number().finite().min(-180).max(180),
      uncertainty_radius: z.number().finite().min(0),
      altitude: z.number().finite().nullable().optional(),
      civic_address: z.string().nullable().optional(),
      /** Epoch ms. */
      created_time: z.number().int().positive(),
    }),
  ),
});
const ErrorResponse = z.object({ detail: z.unknown() });

/** Refresh a cached token this long before the provider says it expires. */
const tokenMarginMs = 30_000;

async function detailOf(response: Response): Promise<string> {
  try {
    const parsed = ErrorResponse.safeParse(await response.json());
    if (parsed.success) {
      const { detail } = parsed.data;
      return typeof detail === 'string' ? detail : JSON.stringify(detail);
    }
  } catch {
    // not JSON
  }
  return `HTTP ${response.status}`;
}

/** Seconds from Retry-After, or exponential back-off from 250 ms. */
function backOffMs(response: Response, attempt: number): number {
  const header = Number(response.headers.get('retry-after'));
  if (Number.isFinite(header) && header >= 0) return header * 1000;
  return 250 * 2 ** attempt;
}

/**
 * A RapidSOS-style emergency-data API: OAuth client credentials (the token is cached until it
 * expires and fetched once for concurrent lookups), then the device location by `caller_id`.
 * A 401 refreshes the token and retries once; a 429 is waited out a few times; errors carry
 * `{ "detail": … }`. The whole lookup has a deadline, after which the caller gets a text message.
 */
export class RapidSosLookupProvider implements LocationLookupProvider {
  readonly name = 'rapid-sos';
  private token: { value: string; expiresAt: number } | undefined;
  private tokenRequest: Promise<string> | undefined;

  constructor(
    private readonly config: RapidSosConfig,
    private readonly fetchFn: typeof fetch = fetch,
  ) {}

  async locate(phoneNumber: string, signal?: AbortSignal): Promise<LookupResult> {
    const timeout = AbortSignal.timeout(this.config.timeoutMs);
    const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
    try {
      return await this.locateWithin(phoneNumber, combined);
    } catch (error) {
      if (timeout.aborted) {
        throw new LookupError(
          'lookup-timeout',
          `the provider did not answer within ${this.config.timeoutMs} ms`,
        );
      }
      if (error instanceof LookupError) throw error;
      if (signal?.aborted) throw error;
      throw new LookupError(
        'rapid-sos-unavailable',
        `the provider could not be reached: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }

  private async locateWithin(phoneNumber: string, signal: AbortSignal): Promise<LookupResult> {
    let refreshed = false;
    let rateLimited = 0;
    for (;;) {
      const token = await this.accessToken(signal);
      const url = `${this.config.baseUrl}/v1/location?caller_id=${encodeURIComponent(phoneNumber)}`;
      const response = await this.fetchFn(url, {
        headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
        signal,
      });
      if (response.status === 401 && !refreshed) {
        // The token was revoked or expired early: fetch a new one, once.
        refreshed = true;
        this.token = undefined;
        await response.body?.cancel();
        continue;
      }
      if (response.status === 401 || response.status === 403) {
        throw new LookupError('lookup-unavailable-invalid-keys', await detailOf(response));
      }
      if (response.status === 429) {
        if (rateLimited >= this.config.maxRateLimitRetries) {
          throw new LookupError('rapid-sos-unavailable', await detailOf(response));
        }
        await response.body?.cancel();
        await wait(backOffMs(response, rateLimited), undefined, { signal });
        rateLimited += 1;
        continue;
      }
      if (response.status === 404) {
        await response.body?.cancel();
        return { found: false };
      }
      if (!response.ok) {
        throw new LookupError('rapid-sos-unavailable', await detailOf(response));
      }
      const body = LocationResponse.safeParse(await response.json());
      if (!body.success) {
        throw new LookupError('rapid-sos-unavailable', 'the provider sent an unexpected answer');
      }
      const newest = [...body.data.locations].sort((a, b) => b.created_time - a.created_time)[0];
      if (!newest) return { found: false };
      const location: ProviderLocation = {
        latitude: newest.latitude,
        longitude: newest.longitude,
        uncertaintyRadiusInMeters: newest.uncertainty_radius,
        altitude: newest.altitude ?? null,
        address: newest.civic_address ?? null,
        capturedAt: newest.created_time,
      };
      return { found: true, location };
    }
  }

  private accessToken(signal: AbortSignal): Promise<string> {
    if (this.token && this.token.expiresAt - tokenMarginMs > Date.now()) {
      return Promise.resolve(this.token.value);
    }
    this.tokenRequest ??= this.fetchToken(signal).finally(() => {
      this.tokenRequest = undefined;
    });
    return this.tokenRequest;
  }

  private async fetchToken(signal: AbortSignal): Promise<string> {
    const response = await this.fetchFn(`${this.config.baseUrl}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: this.config.clientId,
        client_secret: this.config.clientSecret,
      }),
      signal,
    });
    if (response.status === 400 || response.status === 401 || response.status === 403) {
      throw new LookupError('lookup-unavailable-invalid-keys', await detailOf(response));
    }
    if (!response.ok) throw new LookupError('rapid-sos-unavailable', await detailOf(response));
    const body = TokenResponse.safeParse(await response.json());
    if (!body.success) {
      throw new LookupError('rapid-sos-unavailable', 'the provider sent an unexpected token');
    }
    this.token = {
      value: body.data.access_token,
      expiresAt: Date.now() + body.data.expires_in * 1000,
    };
    return this.token.value;
  }
}
