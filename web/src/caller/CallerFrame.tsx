/** @jsxImportSource preact */
import type { CallerTexts, SmsLanguage } from '@locus/contract/caller';
import type { ComponentChildren } from 'preact';
import { useLayoutEffect } from 'preact/hooks';
import { Announcer } from './announcer';
import { LanguageSwitcher } from './LanguageSwitcher';
import { pageLanguageTags } from './page-language';

/**
 * The caller page's frame: one narrow column, readable on a 320 px phone, in the page's language.
 * The view comes first, so its main action is the first thing a caller can tab or swipe to; the
 * language switcher follows it, at the foot of the page.
 */
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
  const lang = pageLanguageTags[language];
  // The document's language and title too: screen readers pick their voice from the language,
  // browsers their fonts. Every language of the page is written left to right. Set in the same
  // commit as the texts (a layout effect), so the page is never in one language and tagged another.
  useLayoutEffect(() => {
    const root = document.documentElement;
    root.lang = lang;
    root.dir = 'ltr';
    document.title = texts.page.documentTitle;
  }, [lang, texts]);

  return (
    <div class="frame" lang={lang}>
      <Announcer>
        <main>{children}</main>
        <footer>
          <LanguageSwitcher
            language={language}
            label={texts.page.languageSwitcher}
            onChange={onLanguage}
          />
        </footer>
      </Announcer>
    </div>
  );
}
