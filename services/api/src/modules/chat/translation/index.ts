import type { ApiConfig } from '../../../config';
import { ApertiumTranslator, apertiumPackages, type ApertiumOptions } from './apertium';
import { DeepLTranslator } from './deepl';
import { LibreTranslateTranslator } from './libretranslate';
import { noTranslator, type Translator } from './translator';

export type { TranslationResult, Translator } from './translator';
export { noTranslator } from './translator';

export type TranslationConfig = Pick<
  ApiConfig,
  | 'TRANSLATION_PROVIDER'
  | 'LIBRETRANSLATE_URL'
  | 'LIBRETRANSLATE_API_KEY'
  | 'DEEPL_API_URL'
  | 'DEEPL_API_KEY'
>;

/**
 * The engine `TRANSLATION_PROVIDER` names. Apertium that is not installed is no reason to stop
 * the product: it says once what to install, and every message is then `not-translated`.
 */
export function createTranslator(
  config: TranslationConfig,
  warn: (message: string) => void = console.warn,
  apertium: ApertiumOptions = {},
): Translator {
  switch (config.TRANSLATION_PROVIDER) {
    case 'none':
      return noTranslator;
    case 'libretranslate':
      // config.ts requires the URL with this provider.
      return new LibreTranslateTranslator({
        url: config.LIBRETRANSLATE_URL ?? '',
        apiKey: config.LIBRETRANSLATE_API_KEY,
      });
    case 'deepl':
      return new DeepLTranslator({ url: config.DEEPL_API_URL, apiKey: config.DEEPL_API_KEY ?? '' });
    case 'apertium': {
      const translator = new ApertiumTranslator(apertium);
      if (!translator.installed)
        warn(
          `Chat translation is off: Apertium is not installed. Install Debian's ` +
            `${apertiumPackages.join(' ')} (sudo apt-get install -y ${apertiumPackages.join(' ')}) ` +
            `or set TRANSLATION_PROVIDER to libretranslate or deepl.`,
        );
      return translator;
    }
  }
}
