/** @jsxImportSource preact */
import { callerTexts, smsLanguages, type SmsLanguage } from '@locus/contract/caller';

/** The four languages, each named in itself; changes this page only. */
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
          lang={callerTexts[code].locale}
          aria-pressed={code === language}
          onClick={() => onChange(code)}
        >
          {callerTexts[code].languageName}
        </button>
      ))}
    </div>
  );
}
