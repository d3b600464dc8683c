/**
 * When the user last did something in the console, shared by every tab of this browser (local
 * storage): working in one tab keeps the others' idle timers back too, since they share one
 * session and one tab's sign-out ends it for all.
 */
const storageKey = 'locus.lastActivity';

let lastActivity = Date.now();
let lastWritten = 0;

export function markActivity(now = Date.now()): void {
  lastActivity = now;
  // Pointer moves come dozens a second: one write a second is plenty.
  if (now - lastWritten >= 1000) {
    lastWritten = now;
    try {
      localStorage.setItem(storageKey, String(now));
    } catch {
      // Storage full or blocked: this tab's own timer still works.
    }
  }
}

/** The latest activity this tab or another one recorded. */
export function lastActivityAt(): number {
  const shared = Number(localStorage.getItem(storageKey));
  return Number.isFinite(shared) ? Math.max(lastActivity, shared) : lastActivity;
}

let keepAliveHolds = 0;

/**
 * While held, the console counts as active: a dispatcher watching a live caller for forty
 * minutes without touching anything must not be signed out mid-rescue. Returns the release.
 */
export function holdKeepAlive(): () => void {
  keepAliveHolds += 1;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    keepAliveHolds -= 1;
  };
}

export function isKeptAlive(): boolean {
  return keepAliveHolds > 0;
}
