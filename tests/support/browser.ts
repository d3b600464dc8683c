/// <reference lib="dom" />
// The functions given to page.evaluate run in the browser.
import AxeBuilder from '@axe-core/playwright';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
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
  await settled(page);
  expect.soft(await wcagViolations(page, only), `axe, ${state}`).toEqual([]);
}

/**
 * Waits until nothing on the page is still animating in: Mantine's modals, drawers and menus
 * fade and scale in, and axe reads colours mid-transition as low contrast. Endless animations
 * (a loader's spinner) are not waited for.
 */
export async function settled(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const moving = document
      .getAnimations()
      .some(
        (animation) =>
          animation.playState === 'running' &&
          animation.effect?.getComputedTiming().iterations !== Infinity,
      );
    const fading = [
      ...document.querySelectorAll(
        '.mantine-Modal-content, .mantine-Modal-overlay, .mantine-Drawer-content, .mantine-Drawer-overlay',
      ),
    ].some((element) => getComputedStyle(element).opacity !== '1');
    return !moving && !fading;
  });
}

/** Waits for a dialog (or any element) to be visible and done animating, then runs axe. */
export async function expectAccessibleOnceShown(
  page: Page,
  shown: Locator,
  state: string,
): Promise<void> {
  await shown.waitFor();
  await expectAccessible(page, state);
}
