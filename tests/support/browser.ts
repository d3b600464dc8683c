import AxeBuilder from '@axe-core/playwright';
import { chromium, type Browser, type Page } from 'playwright-core';
import { expect } from 'vitest';
import { testEnvironment } from './environment';

/** Debian's Chromium, headless, with the flags this sandboxed, offline machine needs. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: testEnvironment.chromium(),
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-quic',
      '--no-first-run',
    ],
  });
}

/** WCAG 2.1 A and AA problems, as axe finds them on the page as it is now (within `only`). */
export async function wcagViolations(page: Page, only?: string): Promise<string[]> {
  const builder = new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']);
  if (only) builder.include(only);
  const results = await builder.analyze();
  return results.violations.map(
    (violation) => `${violation.id}: ${violation.nodes.map((node) => node.target).join(' ')}`,
  );
}

/**
 * Every browser test calls this at each screen and state it reaches (issue 24): axe-core's WCAG
 * 2.0/2.1 A and AA rules must find nothing, so a new screen cannot regress silently. A soft
 * assertion, so one run lists every state that fails, not only the first.
 */
export async function expectAccessible(page: Page, state: string, only?: string): Promise<void> {
  expect.soft(await wcagViolations(page, only), `axe, ${state}`).toEqual([]);
}
