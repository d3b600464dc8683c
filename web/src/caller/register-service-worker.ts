/**
 * Puts the caller's page under its service worker (`service-worker/share-sw.ts`, built to
 * `/share-sw.js` by `web/build/caller-page.ts`), so that the link opens again on a dead network.
 * Its scope is the caller's page alone: the console is never under it.
 *
 * Once the page has loaded and the phone is idle, never before the first paint: on a slow
 * network the worker's download and its copies of the page's files would compete with the page.
 * Skipped in development (Vite's server has no worker to serve), where the browser has no
 * service workers, and outside a secure context (https, or localhost), where it refuses them.
 */
export function registerServiceWorker(): void {
  if (!import.meta.env.PROD || !window.isSecureContext || !('serviceWorker' in navigator)) return;
  const register = () => {
    navigator.serviceWorker.register('/share-sw.js', { scope: '/share' }).catch(() => {
      // Refused (private browsing, storage full, blocked): the page works as it did without.
    });
  };
  const whenIdle = () => {
    if ('requestIdleCallback' in window) requestIdleCallback(register, { timeout: 5_000 });
    else setTimeout(register, 0);
  };
  if (document.readyState === 'complete') whenIdle();
  else window.addEventListener('load', whenIdle, { once: true });
}
