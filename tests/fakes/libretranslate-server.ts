import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpFake, readBody, sendJson } from './http-fake';

export interface FakeTranslateRequest {
  q: unknown;
  source: unknown;
  target: unknown;
  format: unknown;
  api_key?: unknown;
}

/**
 * A LibreTranslate server on a real port: `POST /translate` with a JSON body
 * `{ q, source, target, format, api_key? }` answers `{ translatedText }`; errors are
 * `{ error }` with LibreTranslate's statuses (400 bad request or unsupported language, 403 bad
 * API key, 429 slow down, 500). It "translates" with `phrases` (`source:target:text`), and
 * otherwise answers `[target] text`, so a test sees which language it asked for.
 */
export class FakeLibreTranslate extends HttpFake {
  /** When set, requests must carry this `api_key` (403 otherwise). */
  apiKey: string | null = null;
  readonly phrases = new Map<string, string>();
  readonly requests: FakeTranslateRequest[] = [];
  /** Languages it has models for; others answer 400 like LibreTranslate. */
  languages = new Set(['en', 'es', 'fr', 'zh']);
  /** Wait this long before answering. */
  delayMs = 0;
  /** Answer with this status and error text. */
  failWith: { status: number; error: string } | null = null;

  protected async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const send = (status: number, body: unknown) => sendJson(response, status, body);
    const text = await readBody(request);
    if (request.method !== 'POST' || request.url !== '/translate')
      return send(404, { error: 'Not Found' });
    let body: FakeTranslateRequest;
    try {
      body = JSON.parse(text) as FakeTranslateRequest;
    } catch {
      return send(400, { error: 'Invalid request: missing q parameter' });
    }
    this.requests.push(body);
    if (this.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.delayMs));
    if (this.failWith) return send(this.failWith.status, { error: this.failWith.error });
    if (this.apiKey !== null && body.api_key !== this.apiKey)
      return send(403, { error: 'Invalid API key' });
    if (typeof body.q !== 'string' || !body.q)
      return send(400, { error: 'Invalid request: missing q parameter' });
    if (typeof body.source !== 'string' || !this.languages.has(body.source))
      return send(400, { error: `${String(body.source)} is not supported` });
    if (typeof body.target !== 'string' || !this.languages.has(body.target))
      return send(400, { error: `${String(body.target)} is not supported` });
    const translatedText =
      this.phrases.get(`${body.source}:${body.target}:${body.q}`) ?? `[${body.target}] ${body.q}`;
    send(200, { translatedText });
  }
}
