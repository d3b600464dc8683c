/** @jsxImportSource preact */
import type { CallerTexts, SmsLanguage } from '@locus/contract/caller';
import type { ComponentChildren } from 'preact';
import { useEffect } from 'preact/hooks';
import { LanguageSwitcher } from './LanguageSwitcher';

/** The caller page's frame: one narrow column, readable on a 320 px phone, in the page's language. */
export function CallerFrame({
  texts,
  language,
  onLanguage,
  children,
}: {
  texts: CallerTexts;
  language: SmsLanguage;
  onLanguage: (language: SmsLanguage) => void;
  children: ComponentChildren;
}) {
  // The document's language and title too: screen readers pick their voice from the language,
  // browsers their fonts.
  useEffect(() => {
    document.documentElement.lang = texts.locale;
    document.title = texts.page.documentTitle;
  }, [texts]);

  return (
    <div class="frame" lang={texts.locale}>
      <LanguageSwitcher
        language={language}
        label={texts.page.languageSwitcher}
        onChange={onLanguage}
      />
      <main>{children}</main>
    </div>
  );
}
