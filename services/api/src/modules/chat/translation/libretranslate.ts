import type { SmsLanguage as SmsLanguageCode } from '@locus/contract/caller';
import { excerpt, postJson } from './http';
import type { TranslationResult, Translator } from './translator';

export interface LibreTranslateOptions {
  /** The server's base URL, e.g. https://libretranslate.example.org (no `/translate`). */
  url: string;
  /** Sent as `api_key` when the server asks for one. */
  apiKey?: string;
  timeoutMs?: number;
}

/** LibreTranslate's language codes for Locus's languages (Mandarin is `zh`, simplified). */
const codes: Record<SmsLanguageCode, string> = { en: 'en', es: 'es', fr: 'fr', zh: 'zh' };

/**
 * A LibreTranslate-compatible server (LibreTranslate itself, or a compatible proxy):
 * `POST {url}/translate` with `{ q, source, target, format: 'text', api_key? }` answers
 * `{ translatedText }`, or `{ error }` with a 4xx/5xx status. It is assumed to cover all four
 * languages (LibreTranslate's usual models do); a pair it lacks answers 400 and the message is
 * shown `not-translated`.
 */
export class LibreTranslateTranslator implements Translator {
  readonly name = 'libretranslate';
  private readonly endpoint: string;

  constructor(private readonly options: LibreTranslateOptions) {
    this.endpoint = `${options.url.replace(/\/+$/, '')}/translate`;
  }

  covers(from: SmsLanguageCode, to: SmsLanguageCode): boolean {
    return from !== to;
  }

  async translate(
    text: string,
    from: SmsLanguageCode,
    to: SmsLanguageCode,
    signal: AbortSignal,
  ): Promise<TranslationResult> {
    if (!this.covers(from, to)) return { status: 'not-translated', reason: 'Same language.' };
    const outcome = await postJson(
      this.endpoint,
      {
        q: text,
        source: codes[from],
        target: codes[to],
        format: 'text',
        ...(this.options.apiKey ? { api_key: this.options.apiKey } : {}),
      },
      { signal, timeoutMs: this.options.timeoutMs ?? 10_000 },
    );
    if (!outcome.ok) {
      const detail = excerpt((outcome.body as { error?: unknown } | undefined)?.error);
      return {
        status: 'not-translated',
        reason: `LibreTranslate: ${outcome.reason}${detail ? ` (${detail})` : ''}`,
      };
    }
    const translated = (outcome.body as { translatedText?: unknown } | undefined)?.translatedText;
    if (typeof translated !== 'string' || !translated.trim())
      return {
        status: 'not-translated',
        reason: 'LibreTranslate: no translatedText in the answer',
      };
    return { status: 'translated', text: translated, engine: this.name };
  }
}
