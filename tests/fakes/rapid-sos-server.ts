import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpFake, readBody } from './http-fake';

export interface FakeLocation {
  latitude: number;
  longitude: number;
  uncertainty_radius: number;
  altitude?: number | null;
  civic_address?: string | null;
  created_time: number;
}

/**
 * A RapidSOS-style emergency-data API on a real port: OAuth client credentials at
 * POST /oauth/token, device locations at GET /v1/location?caller_id=…, errors as
 * `{ "detail": … }`. Tests script its misbehaviour (rate limits, revoked tokens, slowness).
 */
export class FakeRapidSos extends HttpFake {
  readonly clientId = 'locus-test-client';
  /** Tests change it to play a provider whose keys were rotated. */
  clientSecret = randomBytes(12).toString('hex');
  /** caller_id → its locations. Unknown numbers answer 404. */
  readonly locations = new Map<string, FakeLocation[]>();
  readonly requests: { method: string; path: string; authorization?: string }[] = [];
  tokenLifetimeSeconds = 3600;
  /** Answer this many location requests with 429 (and Retry-After: 0) first. */
  rateLimitNext = 0;
  /** Wait this long before answering location requests. */
  delayMs = 0;
  /** Answer location requests with this status and detail (e.g. 503). */
  failWith: { status: number; detail: string } | null = null;
  private readonly validTokens = new Set<string>();

  /** Revokes every token issued so far, as the provider does when keys rotate. */
  revokeTokens(): void {
    this.validTokens.clear();
  }

  tokensIssued(): number {
    return this.requests.filter((r) => r.path === '/oauth/token').length;
  }

  protected async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://fake');
    this.requests.push({
      method: request.method ?? '',
      path: url.pathname,
      authorization: request.headers.authorization,
    });
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      response.writeHead(status, { 'content-type': 'application/json', ...headers });
      response.end(JSON.stringify(body));
    };
    if (request.method === 'POST' && url.pathname === '/oauth/token') {
      const form = new URLSearchParams(await readBody(request));
      if (form.get('grant_type') !== 'client_credentials') {
        return send(400, { detail: 'unsupported grant_type' });
      }
      if (
        form.get('client_id') !== this.clientId ||
        form.get('client_secret') !== this.clientSecret
      ) {
        return send(401, { detail: 'Invalid client credentials' });
      }
      const token = randomBytes(16).toString('hex');
      this.validTokens.add(token);
      return send(200, {
        access_token: token,
        token_type: 'BearerToken',
        expires_in: String(this.tokenLifetimeSeconds),
      });
    }
    if (request.method === 'GET' && url.pathname === '/v1/location') {
      const token = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
      if (!token || !this.validTokens.has(token)) {
        return send(401, { detail: 'Access token is invalid or expired' });
      }
      if (this.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.delayMs));
      if (this.rateLimitNext > 0) {
        this.rateLimitNext -= 1;
        return send(429, { detail: 'Too many requests' }, { 'retry-after': '0' });
      }
      if (this.failWith) return send(this.failWith.status, { detail: this.failWith.detail });
      const callerId = url.searchParams.get('caller_id') ?? '';
      const locations = this.locations.get(callerId);
      if (!locations) return send(404, { detail: `No location found for ${callerId}` });
      return send(200, { caller_id: callerId, locations });
    }
    send(404, { detail: 'Not found' });
  }
}
