/** @jsxImportSource preact */
import { render } from 'preact';
import { CallerApp, loadLink, type LinkState } from './CallerApp';
import { callerToken } from './caller-link';
import { registerServiceWorker } from './register-service-worker';

/**
 * The caller's page: its own entry (share.html), a few kilobytes, no console code.
 *
 * The answer about the link was preloaded with the page (the server's `Link` header), so it is
 * usually in by now: the first render waits for it a moment (the HTML's own spinner shows
 * meanwhile) rather than painting "Loading…" and then the request, a second layout that costs
 * a slow phone a tenth of a second before the consent button.
 */
const FIRST_RENDER_WAIT_MS = 300;

const token = callerToken(new URLSearchParams(window.location.search));
const firstLoad = token === null ? null : loadLink(token);

void (async () => {
  const waited = new Promise<null>((resolve) =>
    setTimeout(() => resolve(null), FIRST_RENDER_WAIT_MS),
  );
  const initial: LinkState | null = firstLoad ? await Promise.race([firstLoad, waited]) : null;
  const root = document.getElementById('app')!;
  root.textContent = '';
  render(<CallerApp token={token} firstLoad={firstLoad} initial={initial} />, root);
})();

registerServiceWorker();
