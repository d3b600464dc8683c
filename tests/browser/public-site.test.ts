/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// The functions given to page.evaluate run in the browser.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  privacyPolicy,
  termsOfUse,
  type LegalDocument,
} from '../../web/src/public-site/legal/documents';
import { startApi, testRedisPrefix, type TestApi } from '../support/api';
import {
  expectAccessible,
  expectAccessibleOnceShown,
  launchBrowser,
  settled,
} from '../support/browser';
import { freshDatabase, type TestDatabase } from '../support/database';
import { testEnvironment } from '../support/environment';

let database: TestDatabase;
let api: TestApi;
let browser: Browser;
const redisPrefix = testRedisPrefix();

const desktop = { width: 1280, height: 800 };
const mobile = { width: 375, height: 740 };

beforeAll(async () => {
  database = await freshDatabase();
  api = await startApi({
    databaseUrl: database.url,
    redisPrefix,
    env: { WEB_DIST_DIR: testEnvironment.webDist() },
  });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await api?.close();
  await database?.drop();
});

async function open(path: string, viewport = desktop, base = api.url): Promise<Page> {
  // A page of its own context, not browser.newPage(): axe opens a second page in the context.
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  page.on('close', () => void context.close());
  await page.goto(`${base}${path}`);
  await page.locator('main').waitFor();
  return page;
}

/** Top of an element relative to the viewport, once smooth scrolling has come to rest. */
async function restingTop(page: Page, id: string): Promise<number> {
  await page.waitForFunction(
    () =>
      new Promise<boolean>((resolve) => {
        const before = window.scrollY;
        requestAnimationFrame(() =>
          requestAnimationFrame(() => resolve(window.scrollY === before)),
        );
      }),
  );
  return page.evaluate(
    (target) => document.getElementById(target)!.getBoundingClientRect().top,
    id,
  );
}

/** Waits until the page stops scrolling at the given offset of the section (±1 px). */
async function waitForSectionAt(page: Page, id: string, top: number): Promise<void> {
  await page.waitForFunction(
    ({ target, expected }) => {
      const element = document.getElementById(target);
      return element !== null && Math.abs(element.getBoundingClientRect().top - expected) <= 1;
    },
    { target: id, expected: top },
  );
  expect(Math.round(await restingTop(page, id))).toBe(top);
}

async function waitForScrollTop(page: Page): Promise<void> {
  await page.waitForFunction(() => window.scrollY === 0);
}

function documentText(document: LegalDocument): string {
  return [
    document.summary,
    ...document.sections.flatMap((section) => [
      section.heading,
      ...section.body.map((block) => (typeof block === 'string' ? block : block.list.join(' '))),
    ]),
  ].join(' ');
}

describe('the landing page', { timeout: 60_000 }, () => {
  it('shows the hero, partner highlights, the statistics and the eight features', async () => {
    const page = await open('/');
    await page.getByRole('heading', { level: 1, name: /Find the caller/ }).waitFor();
    const hero = page.locator('#top');
    expect(await hero.getByRole('button', { name: 'Book a Demo' }).isVisible()).toBe(true);
    expect(await hero.getByRole('button', { name: 'Sign Up Now' }).isVisible()).toBe(true);

    expect(
      await page
        .getByRole('heading', { name: 'Built with the people who answer the call' })
        .isVisible(),
    ).toBe(true);
    expect(await page.locator('#partners li').count()).toBe(6);

    for (const statistic of ['158,000+ successful tracks', 'under 50ms response', '24/7 support']) {
      expect(await page.getByText(statistic, { exact: true }).isVisible()).toBe(true);
    }

    const features = await page.locator('#platform h3').allTextContents();
    expect(features).toEqual([
      'Standard search',
      'Multi-search Overwatch',
      'Multi-language SMS',
      'Active search transfer',
      'Admin portal',
      'Analytics',
      'Map features',
      'API suite',
    ]);
    for (const paragraph of await page.locator('#platform li p').allTextContents()) {
      expect(paragraph.length).toBeGreaterThan(120);
    }

    // Landmarks.
    expect(await page.getByRole('navigation', { name: 'Main' }).isVisible()).toBe(true);
    expect(await page.getByRole('main').count()).toBe(1);
    expect(await page.getByRole('contentinfo').isVisible()).toBe(true);
    await expectAccessible(page, 'landing');
    await page.close();
  });

  it("opens the shell's Create Account and Sign In modals", async () => {
    const page = await open('/');
    await page.locator('#top').getByRole('button', { name: 'Sign Up Now' }).click();
    await expectAccessibleOnceShown(
      page,
      page.getByRole('dialog', { name: 'Create Account' }),
      'landing + Create Account',
    );
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });

    await page.getByRole('banner').getByRole('button', { name: 'Sign In' }).click();
    await expectAccessibleOnceShown(
      page,
      page.getByRole('dialog', { name: 'Sign In' }),
      'landing + Sign In',
    );
    await page.close();
  });

  it('scrolls smoothly to Platform and Learn, stopping 80 px below the top', async () => {
    const page = await open('/');
    const nav = page.getByRole('navigation', { name: 'Main' });

    await nav.getByRole('link', { name: 'Platform' }).click();
    await waitForSectionAt(page, 'platform', 80);
    // The section's heading is not hidden under the 64 px sticky bar.
    const heading = await page.locator('#platform h2').boundingBox();
    expect(heading!.y).toBeGreaterThanOrEqual(64);

    await nav.getByRole('link', { name: 'Learn' }).click();
    await waitForSectionAt(page, 'learn', 80);
    expect(page.url()).toBe(`${api.url}/`);

    // The logo goes back to the top.
    await page.getByRole('link', { name: 'Locus home' }).click();
    await waitForScrollTop(page);
    await page.close();
  });

  it('shows the scroll-to-top arrow only once the second section is scrolled past', async () => {
    const page = await open('/');
    const arrow = page.getByRole('button', { name: 'Scroll to top' });
    expect(await arrow.count()).toBe(0);

    // The second section (partners) still partly in view: no arrow.
    const partnersBottom = await page.evaluate(() => {
      const rect = document.getElementById('partners')!.getBoundingClientRect();
      return rect.bottom + window.scrollY;
    });
    await page.evaluate(
      (y) => window.scrollTo({ top: y, behavior: 'instant' }),
      partnersBottom - 200,
    );
    await restingTop(page, 'partners');
    expect(await arrow.count()).toBe(0);

    // Past it.
    await page.evaluate((y) => window.scrollTo({ top: y, behavior: 'instant' }), partnersBottom);
    await arrow.waitFor();
    await arrow.click();
    await waitForScrollTop(page);
    await arrow.waitFor({ state: 'detached' });
    await page.close();
  });

  it('on a 375 px phone, opens a hamburger menu with the same items over a backdrop', async () => {
    const page = await open('/', mobile);
    // Nothing overflows sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      375,
    );
    expect(await page.getByRole('navigation', { name: 'Main' }).isVisible()).toBe(false);
    await expectAccessible(page, 'landing on a phone');

    const burger = page.getByRole('button', { name: 'Menu', exact: true });
    expect(await burger.getAttribute('aria-expanded')).toBe('false');
    await burger.click();
    expect(await burger.getAttribute('aria-expanded')).toBe('true');

    const menu = page.getByRole('dialog');
    await menu.waitFor();
    for (const link of ['Platform', 'Learn', 'About']) {
      expect(await menu.getByRole('link', { name: link }).isVisible()).toBe(true);
    }
    for (const button of ['Sign In', 'Sign Up']) {
      expect(await menu.getByRole('button', { name: button }).isVisible()).toBe(true);
    }
    // The backdrop covers the page behind the menu.
    const backdrop = page.locator('.mantine-Drawer-overlay');
    await backdrop.waitFor();
    const box = await backdrop.boundingBox();
    expect(box).toMatchObject({ x: 0, y: 0, width: 375, height: 740 });
    await settled(page);
    await expectAccessible(page, 'mobile menu');

    // Choosing an item closes the menu and scrolls to the section.
    await menu.getByRole('link', { name: 'Learn' }).click();
    await menu.waitFor({ state: 'detached' });
    await waitForSectionAt(page, 'learn', 80);
    expect(await burger.getAttribute('aria-expanded')).toBe('false');

    // Sign Up from the menu opens Create Account once the menu has gone.
    await burger.click();
    await page.getByRole('dialog').getByRole('button', { name: 'Sign Up' }).click();
    await expectAccessibleOnceShown(
      page,
      page.getByRole('dialog', { name: 'Create Account' }),
      'Create Account on a phone',
    );
    await page.close();
  });

  it('is usable by keyboard in a sensible order, with a visible focus ring', async () => {
    const page = await open('/');
    const order: string[] = [];
    const rings: boolean[] = [];
    for (let i = 0; i < 9; i++) {
      await page.keyboard.press('Tab');
      order.push(
        await page.evaluate(
          () =>
            document.activeElement?.getAttribute('aria-label') ??
            document.activeElement?.textContent?.trim() ??
            '',
        ),
      );
      rings.push(
        await page.evaluate(() => {
          const style = getComputedStyle(document.activeElement!);
          return style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2;
        }),
      );
    }
    expect(order).toEqual([
      'Skip to main content',
      'Locus home',
      'Platform',
      'Learn',
      'About',
      'Sign In',
      'Sign Up',
      'Book a Demo',
      'Sign Up Now',
    ]);
    expect(rings.every(Boolean)).toBe(true);
    await page.close();
  });

  it('keeps text contrast at 4.5:1 or more', async () => {
    for (const [path, viewport] of [
      ['/', desktop],
      ['/about', desktop],
      ['/', mobile],
    ] as const) {
      const page = await open(path, viewport);
      const failures = await page.evaluate(lowContrastTexts);
      expect(failures, `${path} at ${viewport.width}px`).toEqual([]);
      await page.close();
    }
  });
});

describe('the demo video', () => {
  it('loads nothing from the video host until the visitor presses play', async () => {
    const page = await open('/');
    const learn = page.locator('#learn');
    expect(await learn.locator('video, iframe').count()).toBe(0);
    await learn.getByRole('button', { name: /Play the demo video/ }).click();
    const video = learn.locator('video');
    await video.waitFor();
    const config = (await (await fetch(`${api.url}/api/v1/config`)).json()) as {
      demoVideoUrl: string;
    };
    expect(await video.getAttribute('src')).toBe(config.demoVideoUrl);
    await page.close();
  });

  it('embeds a player page in a lazily loaded iframe', async () => {
    const embedded = await startApi({
      databaseUrl: database.url,
      redisPrefix,
      env: {
        WEB_DIST_DIR: testEnvironment.webDist(),
        DEMO_VIDEO_URL: 'https://player.example.com/embed/locus-demo',
      },
    });
    try {
      const page = await open('/', desktop, embedded.url);
      await page
        .locator('#learn')
        .getByRole('button', { name: /Play the demo video/ })
        .click();
      const frame = page.locator('#learn iframe');
      await frame.waitFor({ state: 'attached' });
      expect(await frame.getAttribute('title')).toBe('Locus demo video');
      expect(await frame.getAttribute('loading')).toBe('lazy');
      expect(await frame.getAttribute('src')).toMatch(
        /^https:\/\/player\.example\.com\/embed\/locus-demo\?autoplay=1$/,
      );
      await page.close();
    } finally {
      await embedded.close();
    }
  });

  it('is hidden when no video is configured', async () => {
    const withoutVideo = await startApi({
      databaseUrl: database.url,
      redisPrefix,
      env: { WEB_DIST_DIR: testEnvironment.webDist(), DEMO_VIDEO_URL: '' },
    });
    try {
      const page = await open('/', desktop, withoutVideo.url);
      // The footer's configured links show that the configuration has arrived.
      await page.getByRole('contentinfo').getByRole('link', { name: 'Support' }).waitFor();
      expect(await page.getByRole('button', { name: /Play the demo video/ }).count()).toBe(0);
      await page.close();
    } finally {
      await withoutVideo.close();
    }
  });
});

describe('the about page', { timeout: 60_000 }, () => {
  it('is reached from About, which is then marked as the current page', async () => {
    const page = await open('/');
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'About' })
      .click();
    await page.waitForURL(`${api.url}/about`);
    await page.getByRole('heading', { level: 1, name: /We help emergency services/ }).waitFor();
    expect(
      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'About' })
        .getAttribute('aria-current'),
    ).toBe('page');
    await expectAccessible(page, 'about');
    await page.close();
  });

  for (const target of ['Platform', 'Learn', 'Locus home']) {
    it(`returns to / at the top from ${target}`, async () => {
      const page = await open('/about');
      await page.evaluate(() => window.scrollTo({ top: 600, behavior: 'instant' }));
      await page.waitForFunction(() => window.scrollY === 600);
      const link =
        target === 'Locus home'
          ? page.getByRole('link', { name: 'Locus home' })
          : page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: target });
      await link.click();
      await page.waitForURL(`${api.url}/`);
      await page.getByRole('heading', { level: 1, name: /Find the caller/ }).waitFor();
      await waitForScrollTop(page);
      // It stays there: nothing scrolls the landing page to a section afterwards.
      await restingTop(page, 'top');
      expect(await page.evaluate(() => window.scrollY)).toBe(0);
      await page.close();
    });
  }

  it('follows the same rules from the mobile menu', async () => {
    const page = await open('/about', mobile);
    await page.getByRole('button', { name: 'Menu', exact: true }).click();
    await page.getByRole('dialog').getByRole('link', { name: 'Platform' }).click();
    await page.waitForURL(`${api.url}/`);
    await waitForScrollTop(page);
    await page.close();
  });
});

describe('the footer', { timeout: 60_000 }, () => {
  it('links to support, careers and the social accounts from the configuration', async () => {
    const config = (await (await fetch(`${api.url}/api/v1/config`)).json()) as {
      links: { support: string; careers: string; social: Array<{ name: string; url: string }> };
    };
    const page = await open('/');
    const footer = page.getByRole('contentinfo');
    await footer.getByRole('link', { name: 'Support' }).waitFor();
    expect(await footer.getByRole('link', { name: 'Support' }).getAttribute('href')).toBe(
      config.links.support,
    );
    expect(await footer.getByRole('link', { name: 'Careers' }).getAttribute('href')).toBe(
      config.links.careers,
    );
    for (const social of config.links.social) {
      expect(
        await footer.getByRole('link', { name: `Locus on ${social.name}` }).getAttribute('href'),
      ).toBe(social.url);
    }
    await page.close();
  });

  for (const [button, document] of [
    ['Privacy Policy', privacyPolicy],
    ['Terms of Use and Service', termsOfUse],
  ] as const) {
    it(`opens the ${button} in a 700 px dialog that closes with I accept`, async () => {
      const page = await open('/');
      await page.getByRole('contentinfo').getByRole('button', { name: button }).click();
      const dialog = page.getByRole('dialog', { name: document.title });
      await expectAccessibleOnceShown(page, dialog, `${button} dialog`);
      const box = await page.locator('.mantine-Modal-content').boundingBox();
      expect(box!.width).toBe(700);
      for (const section of document.sections) {
        expect(await dialog.getByRole('heading', { name: section.heading }).count()).toBe(1);
      }
      await dialog.getByRole('button', { name: 'I accept' }).click();
      await dialog.waitFor({ state: 'detached' });
      await page.close();
    });
  }
});

describe('the terms and the privacy policy', () => {
  const terms = documentText(termsOfUse);
  const privacy = documentText(privacyPolicy);

  it('hold the commitments of SPEC.md §5 and §9', () => {
    expect(terms).toMatch(/13 years of age or older/);
    expect(terms).toMatch(/Account information must be confirmed every year/);
    expect(terms).toMatch(/limited to \$100/);
    expect(terms).toMatch(/Text STOP to the short code/);
    expect(terms).toMatch(/Text HELP to the same short code/);
    expect(terms).toMatch(/binding arbitration in Nevada/);
    expect(terms).toMatch(/at least 30 days’ notice/);
    expect(privacy).toMatch(/Privacy Policy changes take effect 30 days after notice/);
  });

  it('say what location data is collected, who sees it and how long it is kept', () => {
    expect(privacy).toMatch(
      /location data, only with the caller’s consent, from the phone’s browser/,
    );
    expect(privacy).toMatch(/visible only to the agency that requested it/);
    expect(privacy).toMatch(/deleted automatically 90 days after the search ends/);
    expect(privacy).toMatch(/valid legal process/);
    expect(privacy).toMatch(/Security/);
    expect(privacy).toMatch(/Contact/);
    expect(privacyPolicy.sections.length).toBeGreaterThanOrEqual(10);
    expect(termsOfUse.sections.length).toBeGreaterThanOrEqual(10);
  });
});

describe('Book a Demo', { timeout: 60_000 }, () => {
  async function openForm(page: Page) {
    await page.locator('#top').getByRole('button', { name: 'Book a Demo' }).click();
    const dialog = page.getByRole('dialog', { name: 'Book a Demo' });
    await dialog.waitFor();
    return dialog;
  }

  async function fill(dialog: ReturnType<Page['getByRole']>, values: Record<string, string>) {
    for (const [label, value] of Object.entries(values)) {
      await dialog.getByLabel(label, { exact: false }).first().fill(value);
    }
  }

  const errorOf = (dialog: ReturnType<Page['getByRole']>, label: string) =>
    dialog.getByLabel(label).evaluate((input) => {
      const ids = (input.getAttribute('aria-describedby') ?? '').split(/\s+/).filter(Boolean);
      const error = ids
        .map((id) => document.getElementById(id))
        .find((element) => element?.className.includes('error'));
      return error?.textContent ?? null;
    });

  it('is 700 px wide and shows SPEC.md §5 messages next to the fields', async () => {
    const page = await open('/');
    const dialog = await openForm(page);
    const box = await page.locator('.mantine-Modal-content').boundingBox();
    expect(box!.width).toBe(700);
    await expectAccessibleOnceShown(page, dialog, 'Book a Demo');

    await dialog.getByRole('button', { name: 'Request demo' }).click();
    await dialog.getByText('Required').first().waitFor();
    for (const label of ['First name', 'Last name', 'Email', 'Phone number', 'Company name']) {
      expect(await errorOf(dialog, label)).toBe('Required');
      expect(await dialog.getByLabel(label).getAttribute('aria-invalid')).toBe('true');
    }
    expect(await errorOf(dialog, 'Comment')).toBeNull();
    await expectAccessible(page, 'Book a Demo, fields to fix');
    // Focus moves to the first field to fix.
    expect(await page.evaluate(() => document.activeElement?.getAttribute('autocomplete'))).toBe(
      'given-name',
    );

    await fill(dialog, { 'First name': 'Ada', Email: 'not-an-email' });
    await dialog.getByRole('button', { name: 'Request demo' }).click();
    await dialog.getByText('Enter a valid email').waitFor();
    expect(await errorOf(dialog, 'First name')).toBeNull();
    await page.close();
  });

  it('clears its fields when closed', async () => {
    const page = await open('/');
    let dialog = await openForm(page);
    await fill(dialog, { 'First name': 'Ada', 'Company name': 'Washoe County 911' });
    await dialog.getByRole('button', { name: 'Request demo' }).click();
    await dialog.getByText('Required').first().waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });

    dialog = await openForm(page);
    expect(await dialog.getByLabel('First name').inputValue()).toBe('');
    expect(await dialog.getByLabel('Company name').inputValue()).toBe('');
    expect(await dialog.getByText('Required').count()).toBe(0);
    await page.close();
  });

  it('sends one request, blocks a second submit while in flight, and thanks the visitor', async () => {
    const page = await open('/');
    // Hold the request until the test has checked the in-flight state.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let sent = 0;
    await page.route('**/api/v1/auth/demo-request', async (route) => {
      sent += 1;
      await released;
      await route.continue();
    });

    const dialog = await openForm(page);
    await fill(dialog, {
      'First name': 'Ada',
      'Last name': 'Lovelace',
      Email: 'Ada.Lovelace@Washoe-County.example',
      'Phone number': '+1 775 555 0100',
      'Company name': 'Washoe County 911',
      Comment: 'We would like to see Overwatch.',
    });
    const submit = dialog.getByRole('button', { name: 'Request demo' });
    await submit.click();
    await page.waitForFunction(() =>
      [...document.querySelectorAll('button')].some(
        (b) => b.textContent?.includes('Request demo') && b.disabled,
      ),
    );
    // Enter in a field must not send it again.
    await dialog.getByLabel('Company name').press('Enter');
    expect(sent).toBe(1);
    release();

    await dialog.getByText('Thank you, Ada!').waitFor();
    expect(sent).toBe(1);
    await expectAccessible(page, 'Book a Demo, thanks');
    const rows = await database.db.selectFrom('demo_requests').selectAll().execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      first_name: 'Ada',
      last_name: 'Lovelace',
      email: 'ada.lovelace@washoe-county.example',
      phone_number: '+1 775 555 0100',
      company_name: 'Washoe County 911',
      comment: 'We would like to see Overwatch.',
    });

    // The thanks' own Close button, not the dialog's corner one (also named Close).
    await dialog.getByRole('status').getByRole('button', { name: 'Close', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.close();
  });

  it('says so when the request fails, and keeps what was typed', async () => {
    const page = await open('/');
    await page.route('**/api/v1/auth/demo-request', (route) =>
      route.fulfill({
        status: 500,
        contentType: 'application/json',
        body: JSON.stringify({ error: 'internal-error', message: 'boom' }),
      }),
    );
    const dialog = await openForm(page);
    await fill(dialog, {
      'First name': 'Grace',
      'Last name': 'Hopper',
      Email: 'grace@example.org',
      'Phone number': '555 0101',
      'Company name': 'Harbor Patrol',
    });
    await dialog.getByRole('button', { name: 'Request demo' }).click();
    await dialog
      .getByRole('alert')
      .filter({ hasText: 'Something went wrong with your request' })
      .waitFor();
    await expectAccessible(page, 'Book a Demo, request failed');
    expect(await dialog.getByLabel('First name').inputValue()).toBe('Grace');
    expect(await dialog.getByRole('button', { name: 'Request demo' }).isEnabled()).toBe(true);
    await page.close();
  });

  it('shows the captcha only when one is configured, and requires it', async () => {
    const page = await open('/');
    expect(await (await openForm(page)).getByTestId('captcha').count()).toBe(0);
    await page.close();

    // Turnstile's documented test keys. This machine cannot reach the vendor, so the widget
    // never produces a token: the form must then refuse to send.
    const withCaptcha = await startApi({
      databaseUrl: database.url,
      redisPrefix,
      env: {
        WEB_DIST_DIR: testEnvironment.webDist(),
        CAPTCHA_PROVIDER: 'turnstile',
        CAPTCHA_SITE_KEY: '1x00000000000000000000AA',
        CAPTCHA_SECRET_KEY: '1x0000000000000000000000000000000AA',
      },
    });
    try {
      const captchaPage = await open('/', desktop, withCaptcha.url);
      await captchaPage.getByRole('contentinfo').getByRole('link', { name: 'Support' }).waitFor();
      let sent = 0;
      await captchaPage.route('**/api/v1/auth/demo-request', (route) => {
        sent += 1;
        return route.abort();
      });
      const dialog = await openForm(captchaPage);
      await dialog.getByTestId('captcha').waitFor({ state: 'attached' });
      await fill(dialog, {
        'First name': 'Grace',
        'Last name': 'Hopper',
        Email: 'grace@example.org',
        'Phone number': '555 0101',
        'Company name': 'Harbor Patrol',
      });
      await dialog.getByRole('button', { name: 'Request demo' }).click();
      await dialog
        .getByRole('alert')
        .filter({ hasText: /verification/ })
        .first()
        .waitFor();
      expect(sent).toBe(0);
      await captchaPage.close();
    } finally {
      await withCaptcha.close();
    }
  });
});

/**
 * Runs in the page: every visible text whose colour against its nearest painted background
 * falls under WCAG AA's 4.5:1 (3:1 for large text). Gradients are measured against the
 * background colour their element declares beneath them.
 */
function lowContrastTexts(): string[] {
  const parse = (value: string): [number, number, number, number] | null => {
    const match = value.match(/rgba?\(([^)]+)\)/);
    if (!match) return null;
    const parts = match[1]!
      .split(/[ ,/]+/)
      .filter(Boolean)
      .map(Number);
    return [parts[0]!, parts[1]!, parts[2]!, parts[3] ?? 1];
  };
  const luminance = ([r, g, b]: number[]) => {
    const channel = (value: number) => {
      const c = value / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    };
    return 0.2126 * channel(r!) + 0.7152 * channel(g!) + 0.0722 * channel(b!);
  };
  const background = (element: Element): number[] => {
    for (let node: Element | null = element; node; node = node.parentElement) {
      const color = parse(getComputedStyle(node).backgroundColor);
      if (color && color[3] > 0.5) return color;
    }
    return [255, 255, 255, 1];
  };
  const failures: string[] = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const element = node.parentElement;
    if (!element || !node.textContent?.trim() || element.closest('svg, [aria-hidden="true"]')) {
      continue;
    }
    const rect = element.getBoundingClientRect();
    const style = getComputedStyle(element);
    if (rect.width === 0 || rect.height === 0 || style.visibility === 'hidden') continue;
    if (style.opacity === '0' || element.closest('[style*="display: none"]')) continue;
    const foreground = parse(style.color);
    if (!foreground) continue;
    const back = background(element);
    // Blend a translucent text colour over its background.
    const alpha = foreground[3];
    const blended = [0, 1, 2].map((i) => foreground[i]! * alpha + back[i]! * (1 - alpha));
    const [light, dark] = [luminance(blended), luminance(back)].sort((a, b) => b - a);
    const ratio = (light! + 0.05) / (dark! + 0.05);
    const size = parseFloat(style.fontSize);
    const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
    if (ratio < (large ? 3 : 4.5)) {
      failures.push(`${ratio.toFixed(2)} "${node.textContent.trim().slice(0, 40)}"`);
    }
  }
  return failures;
}
