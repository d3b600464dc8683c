import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';
import type { Profile } from './profiles';

/** The binding (CDP `Runtime.addBinding`, so the page's CSP does not apply) marks arrive on. */
const binding = '__locusBenchMark';

/** A phone-sized Chromium on Android; every context of the bench looks like this. */
const mobile = {
  viewport: { width: 360, height: 740 },
  deviceScaleFactor: 2,
  isMobile: true,
  hasTouch: true,
  locale: 'en-US',
  userAgent:
    'Mozilla/5.0 (Linux; Android 11; moto g power (2022)) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Mobile Safari/537.36',
} as const;

/** Where the phone is: a fixed point (Washington, DC); the browser delivers it on request. */
export const fixedPosition = { latitude: 38.8895, longitude: -77.0353, accuracy: 12 };

/**
 * Runs in every page before its own scripts (`addInitScript`), as plain JavaScript: tsx's
 * transform would add helpers to a serialised function that the page does not have. It reports
 * through a binding, never through `evaluate`: the caller's page forbids eval in its CSP.
 *
 * - `consent`: `performance.now()` (ms since navigation start) in the first animation frame
 *   in which a button whose text contains the share text has a non-empty box and is not
 *   `visibility: hidden` / `display: none` (Playwright's own definition of visible). Animation
 *   frames run only when the page renders, so this is the frame the button is first painted in.
 * - `paint`: first-contentful-paint, from a PerformanceObserver.
 * - `position`: wall-clock ms (`performance.timeOrigin + performance.now()`) when the page's
 *   first `watchPosition` / `getCurrentPosition` success callback is called.
 */
function initScript(shareText: string): string {
  return `(() => {
  const shareText = ${JSON.stringify(shareText)};
  const send = (mark, tries = 0) => {
    const report = window[${JSON.stringify(binding)}];
    if (typeof report === 'function') report(mark);
    else if (tries < 100) setTimeout(() => send(mark, tries + 1), 10);
  };
  const shown = (element) => {
    const box = element.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) return false;
    const style = getComputedStyle(element);
    return style.visibility !== 'hidden' && style.display !== 'none';
  };
  const consentShown = () => {
    for (const element of document.querySelectorAll('button, [role="button"]')) {
      if ((element.textContent || '').includes(shareText) && shown(element)) return true;
    }
    return false;
  };
  const frame = () => {
    if (consentShown())
      send({ kind: 'consent', at: performance.now(), timeOrigin: performance.timeOrigin });
    else requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
  try {
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries())
        if (entry.name === 'first-contentful-paint') send({ kind: 'paint', at: entry.startTime });
    }).observe({ type: 'paint', buffered: true });
  } catch {}
  if (typeof Geolocation === 'undefined') return;
  let positioned = false;
  for (const name of ['watchPosition', 'getCurrentPosition']) {
    const original = Geolocation.prototype[name];
    Geolocation.prototype[name] = function (success, ...rest) {
      const wrapped = function (position) {
        if (!positioned) {
          positioned = true;
          send({ kind: 'position', at: performance.timeOrigin + performance.now() });
        }
        return success.call(this, position);
      };
      return original.call(this, wrapped, ...rest);
    };
  }
})();`;
}

type Mark =
  | { kind: 'consent'; at: number; timeOrigin: number }
  | { kind: 'paint'; at: number }
  | { kind: 'position'; at: number };

/** The marks one page reported, as promises. */
class Marks {
  firstContentfulPaintMs: number | null = null;
  readonly consent: Promise<{ at: number; timeOrigin: number }>;
  readonly position: Promise<number>;
  private onConsent: (mark: { at: number; timeOrigin: number }) => void = () => {};
  private onPosition: (at: number) => void = () => {};

  constructor() {
    this.consent = new Promise((resolve) => (this.onConsent = resolve));
    this.position = new Promise((resolve) => (this.onPosition = resolve));
  }

  receive(mark: Mark): void {
    if (mark.kind === 'consent') this.onConsent(mark);
    else if (mark.kind === 'position') this.onPosition(mark.at);
    else this.firstContentfulPaintMs ??= Math.round(mark.at);
  }
}

function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} within ${ms / 1000} s`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** One response the page received, from Chromium's own network log (CDP). */
export interface Resource {
  url: string;
  /** CDP's resource type: Document, Script, Stylesheet, Fetch, Image, Font, … */
  type: string;
  mimeType: string;
  /** The response's Content-Encoding, or "" when it was sent uncompressed. */
  encoding: string;
  /** Bytes on the wire, headers included (`Network.loadingFinished.encodedDataLength`). */
  bytes: number;
  /** When it was requested, ms after the document's request was sent. */
  startedMs: number;
  /** When it finished, ms after the document's request was sent; null while still loading. */
  finishedMs: number | null;
}

interface Pending {
  url: string;
  type: string;
  mimeType: string;
  encoding: string;
  bytes: number;
  /** CDP monotonic times, s. */
  startedAt: number;
  finishedAt: number | null;
  failed: boolean;
}

const isScript = (r: Pick<Resource, 'type' | 'mimeType'>): boolean =>
  r.type === 'Script' || /javascript|ecmascript/i.test(r.mimeType);

/** A page's requests as Chromium saw them, with both clocks needed to compare them to marks. */
class NetworkLog {
  private readonly byId = new Map<string, Pending>();
  /** Wall-clock ms minus CDP monotonic ms, from the first request (CDP gives both). */
  private wallOffsetMs: number | null = null;
  private documentSentAt: number | null = null;
  private lastActivity = Date.now();

  constructor(cdp: CDPSession) {
    cdp.on('Network.requestWillBeSent', (event) => {
      this.lastActivity = Date.now();
      if (this.wallOffsetMs === null) {
        this.wallOffsetMs = event.wallTime * 1000 - event.timestamp * 1000;
        this.documentSentAt = event.timestamp;
      }
      this.byId.set(event.requestId, {
        url: event.request.url,
        type: event.type ?? 'Other',
        mimeType: '',
        encoding: '',
        bytes: 0,
        startedAt: event.timestamp,
        finishedAt: null,
        failed: false,
      });
    });
    cdp.on('Network.responseReceived', (event) => {
      const request = this.byId.get(event.requestId);
      if (!request) return;
      request.type = event.type;
      request.mimeType = event.response.mimeType;
      const headers = Object.entries(event.response.headers);
      request.encoding =
        headers.find(([name]) => name.toLowerCase() === 'content-encoding')?.[1] ?? '';
    });
    cdp.on('Network.loadingFinished', (event) => {
      this.lastActivity = Date.now();
      const request = this.byId.get(event.requestId);
      if (!request) return;
      request.bytes = event.encodedDataLength;
      request.finishedAt = event.timestamp;
    });
    cdp.on('Network.loadingFailed', (event) => {
      this.lastActivity = Date.now();
      const request = this.byId.get(event.requestId);
      if (request) request.failed = true;
    });
  }

  private toResource(r: Pending): Resource {
    const since = (at: number): number => Math.round((at - (this.documentSentAt ?? at)) * 1000);
    return {
      url: r.url,
      type: r.type,
      mimeType: r.mimeType,
      encoding: r.encoding,
      bytes: r.bytes,
      startedMs: since(r.startedAt),
      finishedMs: r.finishedAt === null ? null : since(r.finishedAt),
    };
  }

  /** Every request so far; `finishedMs` relative to the document's request. */
  resources(): Resource[] {
    return [...this.byId.values()].map((r) => this.toResource(r));
  }

  /** The requests whose last byte arrived by `wallMs` (wall-clock ms). */
  finishedBy(wallMs: number): Resource[] {
    const offset = this.wallOffsetMs ?? 0;
    return [...this.byId.values()]
      .filter((r) => r.finishedAt !== null && r.finishedAt * 1000 + offset <= wallMs)
      .map((r) => this.toResource(r));
  }

  /** How many requests are neither finished nor failed. */
  inFlight(): number {
    return [...this.byId.values()].filter((r) => r.finishedAt === null && !r.failed).length;
  }

  /** Waits until nothing has been requested or finished for `quietMs`, or `timeoutMs` passes. */
  async settle(quietMs: number, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (this.inFlight() === 0 && Date.now() - this.lastActivity >= quietMs) return;
      await new Promise((wait) => setTimeout(wait, 100));
    }
  }
}

/** A fresh context (no cache, no cookies) looking like a phone, with location granted. */
export async function phoneContext(browser: Browser, origin: string): Promise<BrowserContext> {
  const context = await browser.newContext({ ...mobile, geolocation: fixedPosition });
  await context.grantPermissions(['geolocation'], { origin });
  return context;
}

/** A page under `profile`: CPU slowed, cache off, network throttled; marks installed. */
export async function throttledPage(
  context: BrowserContext,
  profile: Profile,
  shareText: string,
): Promise<MeasuredPage> {
  const page = await context.newPage();
  const marks = new Marks();
  await page.exposeFunction(binding, (mark: Mark) => marks.receive(mark));
  const cdp = await context.newCDPSession(page);
  const network = new NetworkLog(cdp);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: profile.cpuSlowdown });
  if (profile.network) {
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: profile.network.latencyMs,
      downloadThroughput: profile.network.downloadBitsPerSecond / 8,
      uploadThroughput: profile.network.uploadBitsPerSecond / 8,
    });
  }
  await page.addInitScript({ content: initScript(shareText) });
  return { page, network, marks };
}

/** A page under a profile, its network log and the marks its init script reports. */
export interface MeasuredPage {
  page: Page;
  network: NetworkLog;
  marks: Marks;
}

/** What it took for a page to show its consent button. */
export interface ConsentLoad {
  /** ms from navigation start to the frame the button was first painted in (page clock). */
  consentMs: number;
  /** First contentful paint, ms after navigation start, if Chromium reported one by then. */
  firstContentfulPaintMs: number | null;
  /** Bytes of every response finished by then (CDP encodedDataLength, headers included). */
  bytes: number;
  /** Of which JavaScript (resource type Script or a JavaScript MIME type). */
  jsBytes: number;
  requests: number;
  /** Requests still loading when the button showed (not counted above). */
  inFlightAtConsent: number;
  /** Path and bytes of each response counted. */
  resources: Resource[];
}

const pathOf = (url: string): string => {
  try {
    const { pathname, search } = new URL(url);
    return `${pathname}${search.startsWith('?token=') ? '?token=…' : search}`;
  } catch {
    return url;
  }
};

/**
 * Opens `url` and waits for the consent button: first the in-page mark, then Playwright's
 * own check that a button named by `shareText` is visible (the two must agree).
 */
export async function loadUntilConsent(
  { page, network, marks }: MeasuredPage,
  url: string,
  shareText: string,
  timeoutMs: number,
): Promise<ConsentLoad> {
  const started = Date.now();
  await page.goto(url, { waitUntil: 'commit', timeout: timeoutMs });
  const consent = await within(
    marks.consent,
    Math.max(1_000, timeoutMs - (Date.now() - started)),
    'no consent button showed',
  );
  const inFlightAtConsent = network.inFlight();
  await page
    .getByRole('button', { name: shareText })
    .first()
    .waitFor({ state: 'visible', timeout: 5_000 });
  const counted = network.finishedBy(consent.timeOrigin + consent.at);
  const fcp = marks.firstContentfulPaintMs;
  return {
    consentMs: Math.round(consent.at),
    firstContentfulPaintMs: fcp !== null && fcp <= consent.at ? fcp : null,
    bytes: counted.reduce((sum, r) => sum + r.bytes, 0),
    jsBytes: counted.filter(isScript).reduce((sum, r) => sum + r.bytes, 0),
    requests: counted.length,
    inFlightAtConsent,
    resources: counted.map((r) => ({ ...r, url: pathOf(r.url) })),
  };
}

/** From the tap on the consent button to the fix on the dispatcher's socket. */
export interface TapToFix {
  /** Dispatcher socket receive time (Node `Date.now()`) minus the page's first position (wall). */
  firstPositionToFixMs: number;
  /** Dispatcher socket receive time minus the moment the bench clicked (both Node). */
  clickToFixMs: number;
}

/** Taps the consent button and waits for `fixArrived` (the dispatcher's socket). */
export async function tapAndWaitForFix(
  { page, marks }: MeasuredPage,
  shareText: string,
  fixArrived: Promise<number>,
): Promise<TapToFix> {
  const clickedAt = Date.now();
  await page.getByRole('button', { name: shareText }).first().click({ timeout: 10_000 });
  const fixAt = await fixArrived;
  const firstPositionAt = await within(
    marks.position,
    5_000,
    'a fix arrived, but the page reported no position from the browser',
  );
  return {
    firstPositionToFixMs: Math.round(fixAt - firstPositionAt),
    clickToFixMs: fixAt - clickedAt,
  };
}

/** Everything a page loads once it settles (1 s without network activity, at most 30 s). */
export async function loadAndSettle(
  { page, network }: MeasuredPage,
  url: string,
): Promise<{ bytes: number; jsBytes: number; resources: Resource[] }> {
  await page.goto(url, { waitUntil: 'load', timeout: 60_000 });
  await network.settle(1_000, 30_000);
  const resources = network.resources().map((r) => ({ ...r, url: pathOf(r.url) }));
  return {
    bytes: resources.reduce((sum, r) => sum + r.bytes, 0),
    jsBytes: resources.filter(isScript).reduce((sum, r) => sum + r.bytes, 0),
    resources,
  };
}
