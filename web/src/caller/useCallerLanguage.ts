import {
  callerLanguageFromAcceptLanguage,
  smsLanguages,
  type SmsLanguage,
} from '@locus/contract/caller';
import { useState } from 'preact/hooks';

const storageKey = 'locus.caller.language';

function stored(): SmsLanguage | null {
  try {
    const value = sessionStorage.getItem(storageKey);
    return smsLanguages.find((language) => language === value) ?? null;
  } catch {
    return null;
  }
}

function browserLanguage(): SmsLanguage {
  const preferred = navigator.languages?.length ? navigator.languages : [navigator.language];
  return callerLanguageFromAcceptLanguage(preferred.join(','));
}

/**
 * The page's language: the caller's own choice in this tab if they made one, else the link's
 * (the language the dispatcher picked for the text message), else the browser's. Choosing one
 * changes this page only, never what the server sends.
 */
export function useCallerLanguage(
  linkLanguage: SmsLanguage | null,
): [SmsLanguage, (language: SmsLanguage) => void] {
  const [chosen, setChosen] = useState<SmsLanguage | null>(stored);
  const language = chosen ?? linkLanguage ?? browserLanguage();
  const choose = (next: SmsLanguage) => {
    setChosen(next);
    try {
      sessionStorage.setItem(storageKey, next);
    } catch {
      // Private browsing may refuse storage; the choice still holds until the page reloads.
    }
  };
  return [language, choose];
}
