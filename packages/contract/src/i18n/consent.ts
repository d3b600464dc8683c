import type { SmsLanguageCode as SmsLanguage } from '../languages';
import { callerTexts } from './caller-texts';

/**
 * The version of the caller page's texts. A consent receipt names the version the caller's page
 * ran, so that what they agreed to can be shown word for word later. Bump it whenever a text of
 * a consent screen changes in any language: `consent.test.ts` pins each version to a
 * fingerprint of those texts and fails until it is bumped.
 */
export const callerTextsVersion = '2026-11-29.1';

/** The screens whose button starts sharing: each tap on one is a consent. */
export const consentScreens = ['request', 'stopped', 'denied'] as const;
export type ConsentScreen = (typeof consentScreens)[number];

/** What a consent screen showed, in the caller's language, in reading order. */
export interface ConsentShownText {
  title: string;
  lines: string[];
  button: string;
}

/**
 * The words the caller saw above the button they tapped, rendered from the catalogue exactly as
 * the page renders them (the agency name included).
 */
export function consentShownText(
  language: SmsLanguage,
  screen: ConsentScreen,
  agencyName: string,
): ConsentShownText {
  const t = callerTexts[language].page;
  switch (screen) {
    case 'request':
      return {
        title: t.requestTitle,
        lines: [t.requestFrom(agencyName), t.requestWhy, t.requestWhat, t.requestConsent],
        button: t.shareButton,
      };
    case 'stopped':
      return { title: t.stoppedTitle, lines: [t.stoppedBody], button: t.shareAgainButton };
    case 'denied':
      return { title: t.deniedTitle, lines: [t.deniedBody], button: t.tryAgainButton };
  }
}
