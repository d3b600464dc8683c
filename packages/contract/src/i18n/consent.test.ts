import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { smsLanguages } from '../languages';
import { callerTextsVersion, consentScreens, consentShownText } from './consent';

/**
 * Each version's fingerprint of every consent screen in every language. A consent receipt says
 * "the caller saw version V": if a text changed while V stayed, old receipts would be shown
 * with words the caller never saw. Changed a text? Bump `callerTextsVersion` and add its line.
 */
const fingerprints: Record<string, string> = {
  '2026-11-29.1': '02765164de008c3e34fc36e61289641e7caa9d425cdc5edef302b0366d0cdd26',
};

function fingerprint(): string {
  const rendered = smsLanguages.flatMap((language) =>
    consentScreens.map((screen) => [
      language,
      screen,
      consentShownText(language, screen, '{agency}'),
    ]),
  );
  return createHash('sha256').update(JSON.stringify(rendered)).digest('hex');
}

describe('consent texts', () => {
  it('are pinned to the catalogue version a receipt names', () => {
    expect(
      fingerprints[callerTextsVersion],
      `the consent texts changed: bump callerTextsVersion (now ${callerTextsVersion}) and pin the new one`,
    ).toBe(fingerprint());
  });

  it('show the agency the caller was asked by, and the button they tapped', () => {
    for (const language of smsLanguages) {
      const shown = consentShownText(language, 'request', 'Kent County 911');
      expect(shown.lines.join(' ')).toContain('Kent County 911');
      expect(shown.button.length).toBeGreaterThan(0);
      expect(shown.title.length).toBeGreaterThan(0);
    }
  });
});
