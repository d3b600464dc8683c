/** @jsxImportSource preact */
import { callerTexts, smsLanguages, type SmsLanguage } from '@locus/contract/caller';
import { pageLanguageTags } from './page-language';

/**
 * The four languages, each named in itself; changes this page only. The chosen one is pressed,
 * and shown so by more than colour (bold and underlined).
 */
export function LanguageSwitcher({
  language,
  label,
  onChange,
}: {
  language: SmsLanguage;
  /** The group's accessible name, in the current language. */
  label: string;
  onChange: (language: SmsLanguage) => void;
}) {
  return (
    <div class="langs" role="group" aria-label={label}>
      {smsLanguages.map((code) => (
        <button
          key={code}
          type="button"
          class="lang"
          lang={pageLanguageTags[code]}
          aria-pressed={code === language}
          onClick={() => onChange(code)}
        >
          {callerTexts[code].languageName}
        </button>
      ))}
    </div>
  );
}
