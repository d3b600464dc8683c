/// <reference lib="dom" />
// The functions given to page.evaluate run in the browser.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AxeResults, RunOptions } from 'axe-core';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { expect } from 'vitest';
import { testEnvironment } from './environment';

/**
 * Debian's Chromium, headless, with the flags this sandboxed, offline machine needs, and any
 * `extraArgs` a test needs beside them (a fake camera, say).
 */
export function launchBrowser(extraArgs: string[] = []): Promise<Browser> {
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
      ...extraArgs,
    ],
  });
}

/** axe-core's own build, put into a page once per document. */
const axeSource = readFileSync(
  createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
  'utf8',
);

const wcagRules: RunOptions = {
  runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
};

/**
 * WCAG 2.1 A and AA problems, as axe finds them on the page as it is now (within `only`).
 *
 * axe runs straight in the page, injected only when the document does not have it yet. The
 * `@axe-core/playwright` builder injected it again on every call and finished each run in a
 * new blank page: 2.5 s a check on this machine against 0.3 s of actual audit, and more than half
 * of a browser test's time. Frames are not entered: the app has none of its own (the public
 * site's demo player is another site's page).
 */
export async function wcagViolations(page: Page, only?: string): Promise<string[]> {
  const loaded = await page.evaluate(() => 'axe' in window);
  if (!loaded) await page.evaluate(axeSource);
  const results = await page.evaluate(
    ({ only, options }) =>
      (window as unknown as { axe: { run(...args: unknown[]): Promise<AxeResults> } }).axe
        .run(only ?? document, { ...options, iframes: false })
        .then(({ violations }) =>
          violations.map((violation) => ({
            id: violation.id,
            targets: violation.nodes.map((node) => node.target.join(' ')),
          })),
        ),
    { only, options: wcagRules },
  );
  return results.map((violation) => `${violation.id}: ${violation.targets.join(' ')}`);
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
 * fade and scale in (a few hundred ms), and axe reads colours mid-transition as low contrast.
 * Decorations that run on (a loader's spinner, the public site's hero pulse, which beats for
 * about ten seconds) are not waited for: anything running longer than two seconds in all.
 */
export async function settled(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const moving = document.getAnimations().some((animation) => {
      const total = animation.effect?.getComputedTiming().activeDuration;
      return animation.playState === 'running' && typeof total === 'number' && total <= 2_000;
    });
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

/** A focused element's ring, as a sighted keyboard user sees it (WCAG 2.4.7, 1.4.11). */
export interface FocusRing {
  /** The element's text or tag, to name it in a failure. */
  element: string;
  /** Whether the browser shows focus here (`:focus-visible`). */
  visible: boolean;
  style: string;
  width: number;
  /** Contrast of the ring against what it is drawn on: the nearest painted parent. */
  contrast: number;
}

/**
 * Runs in the page, on a focused element (`locator.evaluate(focusRingOf)`). A radio hidden
 * under its label (a segmented control's) shows its focus on the label, so that is measured.
 * Self-contained: Playwright sends its source to the browser.
 */
export function focusRingOf(focused: Element): FocusRing {
  const hidden = focused instanceof HTMLInputElement && getComputedStyle(focused).opacity === '0';
  const element: Element = (hidden && focused.labels?.[0]) || focused;
  const rgba = (value: string): number[] => {
    const parts = value.match(/[\d.]+/g)?.map(Number) ?? [0, 0, 0, 0];
    return [parts[0]!, parts[1]!, parts[2]!, parts[3] ?? 1];
  };
  const luminance = ([r, g, b]: number[]) => {
    const channel = (c: number) => {
      const s = c / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    };
    return 0.2126 * channel(r!) + 0.7152 * channel(g!) + 0.0722 * channel(b!);
  };
  // The ring is drawn outside the element, on whatever its parents paint.
  let background = [255, 255, 255, 1];
  for (let node = element.parentElement; node; node = node.parentElement) {
    const colour = rgba(getComputedStyle(node).backgroundColor);
    if (colour[3]! > 0.5) {
      background = colour;
      break;
    }
  }
  const style = getComputedStyle(element);
  const [light, dark] = [luminance(rgba(style.outlineColor)), luminance(background)].sort(
    (a, b) => b - a,
  );
  return {
    element: (
      element.getAttribute('aria-label') ??
      (element.textContent?.trim() || element.getAttribute('placeholder') || element.tagName)
    ).slice(0, 60),
    visible: focused.matches(':focus-visible'),
    style: style.outlineStyle,
    width: style.outlineStyle === 'none' ? 0 : parseFloat(style.outlineWidth),
    contrast: Math.round(((light! + 0.05) / (dark! + 0.05)) * 100) / 100,
  };
}

/** Presses Tab until `target` has the focus, as a keyboard user gets there; fails past `limit`. */
export async function tabTo(page: Page, target: Locator, limit = 80): Promise<void> {
  for (let presses = 0; presses < limit; presses += 1) {
    await page.keyboard.press('Tab');
    // Let the timers the key queued run first: Mantine's focus trap checks a Tab out of a date
    // field in a timer, and one that ran after the next Tab would move the focus back.
    await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 0)));
    const focused = await target
      .evaluate((element) => element === document.activeElement)
      .catch(() => false);
    if (focused) return;
  }
  throw new Error(`Tab never reached ${String(target)}`);
}
