import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpFake, readBody, sendJson } from './http-fake';

export interface FakeDeepLRequest {
  authorization: string | undefined;
  text: unknown;
  source_lang: unknown;
  target_lang: unknown;
}

const sources = new Set(['EN', 'ES', 'FR', 'ZH', 'DE']);
const targets = new Set(['EN-US', 'EN-GB', 'ES', 'FR', 'ZH', 'ZH-HANS', 'DE']);

/**
 * DeepL's API on a real port: `POST /v2/translate` with `Authorization: DeepL-Auth-Key <key>`
 * and a JSON body `{ text: [..], source_lang, target_lang }` answers
 * `{ translations: [{ detected_source_language, text }] }`. Errors as DeepL sends them: 403 for
 * a wrong key, 456 when the quota is used up, 429 too many requests, 400 `{ message }`, 5xx.
 * "Translates" with `phrases` (`SOURCE:TARGET:text`), otherwise `[TARGET] text`.
 */
export class FakeDeepL extends HttpFake {
  readonly apiKey = `${randomBytes(8).toString('hex')}:fx`;
  readonly phrases = new Map<string, string>();
  readonly requests: FakeDeepLRequest[] = [];
  /** Characters left this billing period; past it every request answers 456. */
  quotaLeft = Number.POSITIVE_INFINITY;
  delayMs = 0;
  /** Answer with this status (and message) instead. */
  failWith: { status: number; message: string } | null = null;

  protected async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const send = (status: number, body: unknown) => sendJson(response, status, body);
    const text = await readBody(request);
    if (request.method !== 'POST' || request.url !== '/v2/translate') return send(404, undefined);
    let body: Partial<FakeDeepLRequest>;
    try {
      body = JSON.parse(text) as Partial<FakeDeepLRequest>;
    } catch {
      return send(400, { message: 'Invalid request: Expected JSON body' });
    }
    const authorization = request.headers.authorization;
    this.requests.push({
      authorization,
      text: body.text,
      source_lang: body.source_lang,
      target_lang: body.target_lang,
    });
    if (this.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.delayMs));
    if (this.failWith) return send(this.failWith.status, { message: this.failWith.message });
    // DeepL answers a missing or wrong key with 403 and no useful body.
    if (authorization !== `DeepL-Auth-Key ${this.apiKey}`)
      return send(403, { message: 'Forbidden' });
    const texts = body.text;
    if (!Array.isArray(texts) || texts.length === 0 || !texts.every((t) => typeof t === 'string'))
      return send(400, { message: "Value for 'text' not supported." });
    if (typeof body.target_lang !== 'string' || !targets.has(body.target_lang))
      return send(400, { message: "Value for 'target_lang' not supported." });
    if (body.source_lang !== undefined && !sources.has(String(body.source_lang)))
      return send(400, { message: "Value for 'source_lang' not supported." });
    const characters = texts.reduce((sum, text) => sum + text.length, 0);
    if (characters > this.quotaLeft) return send(456, { message: 'Quota exceeded' });
    this.quotaLeft -= characters;
    const source = typeof body.source_lang === 'string' ? body.source_lang : 'EN';
    send(200, {
      translations: texts.map((text) => ({
        detected_source_language: source,
        text:
          this.phrases.get(`${source}:${body.target_lang as string}:${text}`) ??
          `[${body.target_lang as string}] ${text}`,
      })),
    });
  }
}
