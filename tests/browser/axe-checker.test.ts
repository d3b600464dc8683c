import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, wcagViolations } from '../support/browser';

// Every browser test trusts `wcagViolations` to find what a screen reader or low-vision user
// would meet: this proves it finds it, on a page made to fail, and stays quiet on a clean one.

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

const failing = `<!doctype html><html lang="en"><head><title>Failing</title></head><body>
  <main>
    <h1>A page made to fail</h1>
    <button id="unnamed"></button>
    <p id="faint" style="color:#bbb;background:#fff">Faint text nobody can read</p>
    <section id="clean"><h2>Fine</h2><button>Named</button></section>
  </main>
</body></html>`;

const clean = `<!doctype html><html lang="en"><head><title>Clean</title></head><body>
  <main><h1>A clean page</h1><button>Share my location</button></main>
</body></html>`;

function ids(violations: string[]): string[] {
  return violations.map((violation) => violation.split(':')[0] ?? '').sort();
}

describe('the WCAG checker every browser test uses', () => {
  it('names each problem with where it is, and nothing on a clean page', async () => {
    const page = await browser.newPage();
    await page.setContent(failing);
    const found = await wcagViolations(page);
    expect(ids(found)).toEqual(['button-name', 'color-contrast']);
    expect(found).toContain('button-name: #unnamed');
    expect(found).toContain('color-contrast: #faint');
    // Checked again in the same document (axe is already there) and within one part of it.
    expect(await wcagViolations(page)).toEqual(found);
    expect(await wcagViolations(page, '#clean')).toEqual([]);
    expect(await wcagViolations(page, '#unnamed')).toEqual(['button-name: #unnamed']);
    // A new document: axe is injected again.
    await page.setContent(clean);
    expect(await wcagViolations(page)).toEqual([]);
    await page.setContent(failing);
    expect(ids(await wcagViolations(page))).toEqual(['button-name', 'color-contrast']);
    await page.close();
  });
});
