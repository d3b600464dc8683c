import type { Browser, Page, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { features } from '../../web/src/public-site/content';
import { privacyPolicy, termsOfUse } from '../../web/src/public-site/legal/documents';
import {
  newPage,
  signInWithForm,
  startAuthEnvironment,
  type AuthEnvironment,
} from './auth-support';

let env: AuthEnvironment;

beforeAll(async () => {
  env = await startAuthEnvironment();
});

afterAll(async () => {
  await env?.close();
});

function url(path: string): string {
  return `${env.api.url}${path}`;
}

interface Script {
  /** The file name under /assets/, e.g. `DashboardPage-XN4E1e0-.js`. */
  file: string;
  body: string;
}

/** Every JavaScript file the page requests from now until `all()`, with its text. */
function recordScripts(page: Page): { all(): Promise<Script[]> } {
  const scripts: Array<Promise<Script>> = [];
  const record = (response: Response) => {
    const { pathname } = new URL(response.url());
    if (!pathname.endsWith('.js')) return;
    const file = pathname.slice(pathname.lastIndexOf('/') + 1);
    const script = response.text().then((body) => ({ file, body }));
    // Awaited by `all()`, which fails with it; until then (or if a chunk came after it and the
    // page closed first) it must not count as an unhandled rejection.
    script.catch(() => undefined);
    scripts.push(script);
  };
  page.on('response', record);
  return {
    all: () => {
      page.off('response', record);
      return Promise.all(scripts);
    },
  };
}

const files = (scripts: Script[]) => scripts.map((script) => script.file);
const named = (scripts: Script[], pattern: RegExp) =>
  files(scripts.filter((script) => pattern.test(script.file)));
const containing = (scripts: Script[], text: string) =>
  files(scripts.filter((script) => script.body.includes(text)));

/** Leaflet's own class names: present in any bundle that carries the map library. */
const leafletMarker = 'leaflet-container';

/** Chunks of the public site (web/src/public-site), by the module Rollup names them after. */
const publicSiteChunk =
  /^(LandingPage|AboutPage|SiteFrame|SiteHeader|MobileMenu|BookDemoModal|LegalDialog|PrivacyPolicyDialog|TermsDialog)-/;

/** Text that only the public site's code carries: the landing and about pages, the legal texts. */
const publicSiteTexts = [
  'Nothing for the caller to install',
  features[0]!.description,
  'We help emergency services find the people who call them.',
  privacyPolicy.summary,
  termsOfUse.summary,
];

/** A fresh browser context (empty cache) holding the same session as `page`. */
async function sameSessionPage(browser: Browser, page: Page): Promise<Page> {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 800 },
    storageState: await page.context().storageState(),
  });
  context.setDefaultTimeout(10_000);
  return context.newPage();
}

describe('code splitting', { timeout: 60_000 }, () => {
  it('keeps the dashboard, the map and the console out of the landing page', async () => {
    const { page, context } = await newPage(env.browser);
    const scripts = recordScripts(page);
    await page.goto(url('/'));
    await page.getByRole('heading', { level: 1, name: /Find the caller/ }).waitFor();
    await page.waitForLoadState('networkidle');
    const loaded = await scripts.all();

    // The landing page came in a chunk of its own: the names below are how chunks are named.
    expect(named(loaded, /^LandingPage-/)).toHaveLength(1);
    expect(named(loaded, /^DashboardPage/)).toEqual([]);
    expect(named(loaded, /^ConsoleLayout/)).toEqual([]);
    expect(containing(loaded, leafletMarker)).toEqual([]);
    await context.close();
  });

  it('keeps the public site out of the dashboard', async () => {
    const { page, context } = await newPage(env.browser);
    await signInWithForm(page, env.api.url, 'dispatcher@demo-county.test');

    // The dashboard opened on its own, as a signed-in dispatcher comes back to it.
    const dashboard = await sameSessionPage(env.browser, page);
    const scripts = recordScripts(dashboard);
    await dashboard.goto(url('/dashboard'));
    await dashboard.getByRole('button', { name: /user menu/i }).waitFor();
    // The dashboard's own chunk has run (its locate form is on screen), not only the layout's:
    // on a loaded machine the network can go quiet between the two.
    await dashboard.getByLabel('Phone number').waitFor();
    await dashboard.waitForLoadState('networkidle');
    const loaded = await scripts.all();

    // What the dashboard does load carries the markers the other test looks for.
    expect(named(loaded, /^DashboardPage-/)).toHaveLength(1);
    expect(containing(loaded, leafletMarker)).not.toEqual([]);

    expect(named(loaded, publicSiteChunk)).toEqual([]);
    for (const text of publicSiteTexts) expect(containing(loaded, text)).toEqual([]);
    await dashboard.context().close();
    await context.close();
  });

  it('shows that a page is loading while its chunk downloads', async () => {
    const { page, context } = await newPage(env.browser);
    await signInWithForm(page, env.api.url, 'dispatcher@demo-county.test');

    const dashboard = await sameSessionPage(env.browser, page);
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    await dashboard.route(/\/assets\/DashboardPage-[^/]*\.js$/, async (route) => {
      await released;
      await route.continue();
    });
    await dashboard.goto(url('/dashboard'));
    const loading = dashboard.getByRole('status').filter({ hasText: 'Loading…' });
    await loading.waitFor();
    expect(await loading.isVisible()).toBe(true);

    release();
    await loading.waitFor({ state: 'detached' });
    await dashboard.getByRole('button', { name: /user menu/i }).waitFor();
    await dashboard.context().close();
    await context.close();
  });
});
