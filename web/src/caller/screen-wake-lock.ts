/**
 * Keeps the screen on while the caller shares, where the browser allows it: a phone that locks
 * itself stops reporting its location. The browser releases the lock whenever the page is
 * hidden; `acquire` again once it is visible. Failures are ignored (battery saver, old browser).
 */
export class ScreenWakeLock {
  private sentinel: WakeLockSentinel | null = null;
  private wanted = false;

  acquire(): void {
    this.wanted = true;
    if (this.sentinel && !this.sentinel.released) return;
    if (!('wakeLock' in navigator) || document.visibilityState !== 'visible') return;
    navigator.wakeLock.request('screen').then(
      (sentinel) => {
        if (this.wanted) this.sentinel = sentinel;
        else void sentinel.release();
      },
      () => undefined,
    );
  }

  release(): void {
    this.wanted = false;
    const sentinel = this.sentinel;
    this.sentinel = null;
    if (sentinel && !sentinel.released) sentinel.release().catch(() => undefined);
  }
}
