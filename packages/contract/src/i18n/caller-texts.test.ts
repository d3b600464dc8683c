import { describe, expect, it } from 'vitest';
import { chatQuickReplies } from '../chat';
import { smsLanguages } from '../tracking';
import {
  callerLanguageFromAcceptLanguage,
  callerTexts,
  type CallerPageTexts,
  type CallerTexts,
} from './caller-texts';

const agencyName = 'Kent County 911';
const link = `https://locus.example/share?token=${'Ab3_-'.repeat(8)}Ab3`;

/** GSM 03.38: the basic alphabet and the extension table (whose characters count twice). */
const gsmBasic =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
const gsmExtension = '^{}\\[~]|€';

function gsmLength(text: string): number | null {
  let length = 0;
  for (const char of text) {
    if (gsmBasic.includes(char)) length += 1;
    else if (gsmExtension.includes(char)) length += 2;
    else return null;
  }
  return length;
}

/** Every page string, with functions called on sample values and step lists flattened. */
function pageStrings(page: CallerPageTexts): [string, string][] {
  return Object.entries(page).flatMap(([key, value]): [string, string][] => {
    if (typeof value === 'function') {
      const sample = (value as (arg: string | number) => string)(
        key === 'accuracy' ? 12 : key === 'lastUpdate' ? '10:42' : agencyName,
      );
      return [[key, sample]];
    }
    if (typeof value === 'string') return [[key, value]];
    return Object.entries(value as Record<string, readonly string[]>).flatMap(([kind, steps]) =>
      steps.map((step, index): [string, string] => [`${key}.${kind}.${index}`, step]),
    );
  });
}

describe('callerTexts', () => {
  it('has every SMS language', () => {
    expect(Object.keys(callerTexts).sort()).toEqual([...smsLanguages].sort());
  });

  it.each(smsLanguages)('%s: the SMS holds the link and the STOP and HELP keywords', (language) => {
    const texts: CallerTexts = callerTexts[language];
    const body = texts.sms({ agencyName, link });
    expect(link).toHaveLength(77);
    expect(body).toContain(link);
    expect(body).toContain(agencyName);
    expect(body).toMatch(/STOP/);
    expect(body).toMatch(/HELP/);
    // Some apps would otherwise take what follows as part of the address.
    expect(body).toContain(`${link} `);
    expect(texts.smsHelpReply).toMatch(/STOP/);
    expect(texts.smsHelpReply).toContain('911');
    expect(texts.smsStopReply).toContain('911');
    expect(texts.page.optedOutBody).toMatch(/STOP/);
  });

  it.each(['en', 'es', 'fr'] as const)('%s: the SMS fits in 160 characters', (language) => {
    expect(callerTexts[language].sms({ agencyName, link }).length).toBeLessThanOrEqual(160);
  });

  it.each(['en', 'fr'] as const)('%s: the SMS is one GSM 7-bit segment', (language) => {
    const length = gsmLength(callerTexts[language].sms({ agencyName, link }));
    expect(length).not.toBeNull();
    expect(length).toBeLessThanOrEqual(160);
  });

  it.each(smsLanguages)('%s: every page text is filled in', (language) => {
    const texts = callerTexts[language];
    expect(texts.languageName.trim()).not.toBe('');
    expect(texts.locale.trim()).not.toBe('');
    for (const [key, value] of pageStrings(texts.page)) {
      expect(value.trim(), `${language}.${key}`).not.toBe('');
    }
    for (const steps of Object.values(texts.page.deniedSteps)) {
      expect(steps.length).toBeGreaterThanOrEqual(2);
      expect(steps.length).toBeLessThanOrEqual(3);
    }
  });

  it.each(smsLanguages)('%s: texts refer to buttons by their own labels', (language) => {
    const { page } = callerTexts[language];
    expect(page.requestWhat).toContain(page.stopButton);
    for (const steps of Object.values(page.deniedSteps)) {
      expect(steps.at(-1)).toContain(page.tryAgainButton);
    }
    expect(page.requestFrom(agencyName)).toContain(agencyName);
    expect(page.accuracy(12)).toContain('12');
    expect(page.lastUpdate('10:42')).toContain('10:42');
    expect(page.callForHelp).toContain('911');
  });

  it.each(['es', 'fr', 'zh'] as const)('%s: is translated, not copied from English', (language) => {
    const english = new Map(pageStrings(callerTexts.en.page));
    const texts = callerTexts[language];
    for (const [key, value] of pageStrings(texts.page)) {
      expect(value, `${language}.${key}`).not.toBe(english.get(key));
    }
    expect(texts.languageName).not.toBe(callerTexts.en.languageName);
    expect(texts.sms({ agencyName, link })).not.toBe(callerTexts.en.sms({ agencyName, link }));
    expect(texts.smsHelpReply).not.toBe(callerTexts.en.smsHelpReply);
    expect(texts.smsStopReply).not.toBe(callerTexts.en.smsStopReply);
  });

  it('has the same keys in every language', () => {
    const keys = (texts: CallerTexts) => pageStrings(texts.page).map(([key]) => key);
    for (const language of smsLanguages) {
      expect(keys(callerTexts[language])).toEqual(keys(callerTexts.en));
    }
  });

  it.each(smsLanguages)('%s: has every chat quick reply, translated beforehand', (language) => {
    const replies = callerTexts[language].quickReplies;
    expect(Object.keys(replies).sort()).toEqual([...chatQuickReplies].sort());
    for (const key of chatQuickReplies) {
      expect(replies[key].trim(), `${language}.${key}`).not.toBe('');
      if (language !== 'en') expect(replies[key]).not.toBe(callerTexts.en.quickReplies[key]);
    }
  });

  it('writes the Chinese page without English words, except names the phone shows', () => {
    const allowed = /\b(STOP|HELP|Safari|Chrome|App|Locus|Kent|County|m)\b/g;
    for (const [key, value] of pageStrings(callerTexts.zh.page)) {
      expect(value.replace(allowed, ''), `zh.${key}`).not.toMatch(/[A-Za-z]{2,}/);
    }
  });
});

describe('callerLanguageFromAcceptLanguage', () => {
  it.each([
    [undefined, 'en'],
    [null, 'en'],
    ['', 'en'],
    ['de-DE,de;q=0.9', 'en'],
    ['es-MX,es;q=0.9,en;q=0.8', 'es'],
    ['fr-CA', 'fr'],
    ['zh-TW,zh;q=0.9', 'zh'],
    ['de;q=1, fr;q=0.5, es;q=0.7', 'es'],
    ['EN-us', 'en'],
    ['es;q=0, fr;q=0.1', 'fr'],
    ['en,es', 'en'],
    ['*', 'en'],
  ] as const)('%s → %s', (header, language) => {
    expect(callerLanguageFromAcceptLanguage(header)).toBe(language);
  });
});
