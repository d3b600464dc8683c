import { callerLinkPath, callerLinkTokenPattern } from '@locus/contract/caller';

/**
 * The caller's page's service worker (`/share-sw.js`, scope `/share`), so that a caller who
 * opened the link once can reopen it, or reload it, on a dead network: the page comes from the
 * phone's cache, in the link's language, and goes on taking positions into its queue
 * (`fix-queue.ts`) until the network returns. It serves nothing but the caller's page: its
 * HTML, its hashed files and the answer about its link. Everything else, sockets and non-GET
 * requests included, goes to the network as if there were no worker.
 *
 * Built on its own by `web/build/caller-page.ts`, which fills in the constants below: a build
 * has its own cache, and a deploy changes this file, so the browser installs the new worker
 * and the old cache goes.
 */

/** A hash of the caller page's build. */
declare const __SHARE_SW_VERSION__: string;
/** The caller page's own files, by path: `/share.html` and its hashed assets. */
declare const __SHARE_SW_PRECACHE__: readonly string[];
/** The scripts `share.html` loads: the HTML cached must be the one they belong to. */
declare const __SHARE_SW_ENTRY_SCRIPTS__: readonly string[];

// The worker's own types, by hand: the web project is typed with the DOM library, which
// cannot be combined with the WebWorker one in one program.
interface ExtendableEvent extends Event {
  waitUntil(promise: Promise<unknown>): void;
}
interface FetchEvent extends ExtendableEvent {
  readonly request: Request;
  /** The navigation preload's answer, or undefined when preload is off. */
  readonly preloadResponse: Promise<Response | undefined>;
  respondWith(response: Response | Promise<Response>): void;
}
interface ServiceWorkerScope {
  readonly registration: ServiceWorkerRegistration;
  readonly clients: {
    claim(): Promise<void>;
    matchAll(options: {
      type: 'window';
      includeUncontrolled: boolean;
    }): Promise<readonly { readonly url: string }[]>;
  };
  readonly location: { readonly origin: string };
  readonly navigator: { readonly onLine: boolean };
  skipWaiting(): Promise<void>;
  addEventListener(type: 'install' | 'activate', listener: (event: ExtendableEvent) => void): void;
  addEventListener(type: 'fetch', listener: (event: FetchEvent) => void): void;
}

const worker = self as unknown as ServiceWorkerScope;

/** The one HTML of the caller's page: the same for every `/share?token=…`. */
const PAGE = '/share.html';
/** How long a request may keep the caller waiting for the network when the cache has an answer. */
const NETWORK_TIMEOUT_MS = 3_000;
/** Link answers kept, newest last: a phone sees a handful of links, never many. */
const MAX_LINKS = 20;

const CACHE_PREFIX = 'locus-caller-';
/** This build's page; a newer build's worker deletes it. */
const PAGE_CACHE = `${CACHE_PREFIX}page-${__SHARE_SW_VERSION__}`;
/** The last answer about each link: outlives a deploy, so a reopen after one still knows it. */
const LINK_CACHE = `${CACHE_PREFIX}links`;

/** An answer of the server itself, not of a gateway that could not reach it (5xx). */
const serverAnswered = (answer: Response) => answer.status < 500;

worker.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      await precache();
      // Without it the page still opens offline, only not knowing its link yet.
      await keepOpenLinks().catch(() => undefined);
      await worker.skipWaiting();
    })(),
  );
});

worker.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      const stale = (await caches.keys()).filter(
        (name) => name.startsWith(CACHE_PREFIX) && name !== PAGE_CACHE && name !== LINK_CACHE,
      );
      await Promise.all(stale.map((name) => caches.delete(name)));
      // The network request of a navigation starts while the worker is still waking up.
      if ('navigationPreload' in worker.registration) {
        await worker.registration.navigationPreload.enable();
      }
      await worker.clients.claim();
    })(),
  );
});

worker.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== worker.location.origin) return;
  if (request.mode === 'navigate') {
    // The scope `/share` is a prefix: `/share.html` or any other path under it is not the page.
    if (url.pathname === '/share') event.respondWith(page(event));
  } else if (url.pathname === callerLinkPath) {
    event.respondWith(link(event));
  } else if (url.pathname.startsWith('/assets/')) {
    event.respondWith(asset(request));
  }
});

/**
 * Caches this build's files. The files are those the page has just loaded, so this costs the
 * phone little; `addAll` keeps all or nothing, and a failed install leaves the last worker on.
 */
async function precache(): Promise<void> {
  const cache = await caches.open(PAGE_CACHE);
  await cache.addAll(__SHARE_SW_PRECACHE__);
  // A deploy between this worker's download and now would have cached another build's HTML,
  // whose script this cache lacks: better no new worker than a page that cannot start offline.
  const html = await (await cache.match(PAGE))?.text();
  if (!html || !__SHARE_SW_ENTRY_SCRIPTS__.every((src) => html.includes(`"${src}"`))) {
    await caches.delete(PAGE_CACHE);
    throw new Error(`${PAGE} is not the one of build ${__SHARE_SW_VERSION__}`);
  }
}

/**
 * The answer about the links of the pages open now: the first page of a link on this phone
 * asked before there was a worker to keep it. One small request each, and only once: a link
 * already kept, or a page already under a worker, needs none.
 */
async function keepOpenLinks(): Promise<void> {
  const cache = await caches.open(LINK_CACHE);
  const pages = await worker.clients.matchAll({ type: 'window', includeUncontrolled: true });
  const links = pages.flatMap(({ url }) => {
    const { origin, pathname, searchParams } = new URL(url);
    const token = searchParams.get('token');
    return origin === worker.location.origin &&
      pathname === '/share' &&
      token !== null &&
      callerLinkTokenPattern.test(token)
      ? [new Request(`${callerLinkPath}?token=${token}`)]
      : [];
  });
  await Promise.all(
    links.map(async (request) => {
      if (await cache.match(request, { ignoreVary: true })) return;
      const answer = await fetch(request).catch(() => null);
      if (answer?.status === 200) await keepLink(request, answer);
    }),
  );
}

/**
 * The page: the network while it answers in time (a deploy reaches callers at once), else the
 * cached one; a server error (a proxy with no server behind it) is no better than no answer.
 */
function page(event: FetchEvent): Promise<Response> {
  const cached = () => caches.match(PAGE, { cacheName: PAGE_CACHE, ignoreVary: true });
  // The navigation preload (when on) is already on its way; settled either way.
  const preload = event.preloadResponse.catch(() => undefined);
  event.waitUntil(preload);
  const network = () => preload.then((preloaded) => preloaded ?? fetch(event.request));
  if (!worker.navigator.onLine) return cachedOr(cached, network);
  return networkFirst(network(), cached, serverAnswered);
}

/**
 * What the link says: the network while it answers in time, else its last answer on this phone,
 * so that an offline reopen still shows the link's language, agency and text-back number. Only
 * a 200 is kept; a server error (a gateway with no server behind it) also falls back to it.
 */
function link(event: FetchEvent): Promise<Response> {
  const { request } = event;
  const cached = async () => (await caches.open(LINK_CACHE)).match(request, { ignoreVary: true });
  const network = () => {
    const response = fetch(request);
    event.waitUntil(
      response
        .then((answer) => (answer.status === 200 ? keepLink(request, answer.clone()) : undefined))
        .catch(() => undefined),
    );
    return response;
  };
  if (!worker.navigator.onLine) return cachedOr(cached, network);
  return networkFirst(network(), cached, serverAnswered);
}

async function keepLink(request: Request, answer: Response): Promise<void> {
  const cache = await caches.open(LINK_CACHE);
  // A put replaces the entry and moves it last: the oldest links are first.
  await cache.put(request, answer);
  const keys = await cache.keys();
  await Promise.all(keys.slice(0, -MAX_LINKS).map((key) => cache.delete(key)));
}

/** A hashed file: the same bytes forever under its name, so the cache first. */
async function asset(request: Request): Promise<Response> {
  return (
    (await caches.match(request, { cacheName: PAGE_CACHE, ignoreVary: true })) ?? fetch(request)
  );
}

/** Offline: the cache, and the network only when the cache has nothing. */
async function cachedOr(
  cached: () => Promise<Response | undefined>,
  network: () => Promise<Response>,
): Promise<Response> {
  return (await cached()) ?? network();
}

/**
 * The network's answer if it comes within NETWORK_TIMEOUT_MS and is `usable`; otherwise the
 * cached one; and when the cache has nothing, whatever the network says, however late.
 */
async function networkFirst(
  network: Promise<Response>,
  cached: () => Promise<Response | undefined>,
  usable: (answer: Response) => boolean,
): Promise<Response> {
  // Answered from the cache, a failing network must not be an unhandled rejection.
  network.catch(() => undefined);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), NETWORK_TIMEOUT_MS);
  });
  try {
    const first = await Promise.race([network, late]);
    if (first !== 'late' && usable(first)) return first;
  } catch {
    // No network: the cache, below.
  } finally {
    clearTimeout(timer);
  }
  return (await cached()) ?? network;
}
