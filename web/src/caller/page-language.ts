import type { SmsLanguage } from '@locus/contract/caller';

/**
 * The page's `lang`, as screen readers pick a voice and browsers their fonts by it: the
 * language, and for Chinese the script the texts are written in (Simplified). The texts'
 * `locale` (`en-US`, `es-US`, `zh-CN`) stays what times are formatted with.
 */
export const pageLanguageTags: Record<SmsLanguage, string> = {
  en: 'en',
  es: 'es',
  fr: 'fr',
  zh: 'zh-Hans',
};
