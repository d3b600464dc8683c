import type { SmsLanguage as SmsLanguageCode } from '@locus/contract/caller';
import { excerpt, postJson } from './http';
import type { TranslationResult, Translator } from './translator';

export interface DeepLOptions {
  /** https://api-free.deepl.com for a free key, https://api.deepl.com for a paid one. */
  url: string;
  apiKey: string;
  timeoutMs?: number;
}

/** DeepL's source codes are bare languages… */
const sourceCodes: Record<SmsLanguageCode, string> = { en: 'EN', es: 'ES', fr: 'FR', zh: 'ZH' };
/** …its target codes name a variant where it has several (plain `EN` is deprecated as a target). */
const targetCodes: Record<SmsLanguageCode, string> = {
  en: 'EN-US',
  es: 'ES',
  fr: 'FR',
  zh: 'ZH-HANS',
};

/** What DeepL's status codes mean, worded for the log. */
const statusReasons: Record<number, string> = {
  403: 'the API key was refused (403)',
  429: 'too many requests (429)',
  456: 'the quota is used up (456)',
};

/**
 * DeepL's API: `POST {url}/v2/translate` with `Authorization: DeepL-Auth-Key <key>` and
 * `{ text: [..], source_lang, target_lang }` answers `{ translations: [{ detected_source_language,
 * text }] }`. 403 is a bad key, 456 the quota, 429 too many requests; all of them, like a 5xx,
 * leave the message `not-translated`.
 */
export class DeepLTranslator implements Translator {
  readonly name = 'deepl';
  private readonly endpoint: string;

  constructor(private readonly options: DeepLOptions) {
    this.endpoint = `${options.url.replace(/\/+$/, '')}/v2/translate`;
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
      { text: [text], source_lang: sourceCodes[from], target_lang: targetCodes[to] },
      {
        headers: { authorization: `DeepL-Auth-Key ${this.options.apiKey}` },
        signal,
        timeoutMs: this.options.timeoutMs ?? 10_000,
      },
    );
    if (!outcome.ok) {
      const known = outcome.status ? statusReasons[outcome.status] : undefined;
      const detail = excerpt((outcome.body as { message?: unknown } | undefined)?.message);
      return {
        status: 'not-translated',
        reason: `DeepL: ${known ?? outcome.reason}${detail ? ` (${detail})` : ''}`,
      };
    }
    const first = (outcome.body as { translations?: Array<{ text?: unknown }> } | undefined)
      ?.translations?.[0]?.text;
    if (typeof first !== 'string' || !first.trim())
      return { status: 'not-translated', reason: 'DeepL: no translation in the answer' };
    return { status: 'translated', text: first, engine: this.name };
  }
}
