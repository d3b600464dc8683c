import type { SmsLanguage as SmsLanguageCode } from '@locus/contract/caller';

/**
 * What a translation engine answers for one message. `not-translated` is an honest "no": the
 * pair is not covered, the engine failed or timed out. The chat then shows the original marked
 * "not translated", never a wrong language silently.
 */
export type TranslationResult =
  | { status: 'translated'; text: string; engine: string }
  | { status: 'not-translated'; reason: string };

/**
 * A translation engine (issue 12): Apertium (offline, the default), a LibreTranslate-compatible
 * HTTP server, or DeepL's API. `signal` aborts the request when the caller gives up.
 */
export interface Translator {
  readonly name: string;
  /** True when this engine can translate `from` → `to` (directly or through a pivot). */
  covers(from: SmsLanguageCode, to: SmsLanguageCode): boolean;
  translate(
    text: string,
    from: SmsLanguageCode,
    to: SmsLanguageCode,
    signal: AbortSignal,
  ): Promise<TranslationResult>;
}

/** No engine configured (`TRANSLATION_PROVIDER=none`): every pair is `not-translated`. */
export const noTranslator: Translator = {
  name: 'none',
  covers: () => false,
  translate: () =>
    Promise.resolve({ status: 'not-translated', reason: 'No translation engine is configured.' }),
};
