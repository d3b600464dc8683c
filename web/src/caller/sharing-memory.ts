const prefix = 'locus.caller.sharing:';

/**
 * Whether the caller was sharing on this link when the page last went away, so that a reload
 * (or the phone killing the tab) does not silently stop a caller who never tapped Stop.
 * localStorage: it outlives the tab, unlike sessionStorage. Refused storage means no memory.
 */
export const sharingMemory = {
  wasSharing(token: string): boolean {
    try {
      return localStorage.getItem(prefix + token) === '1';
    } catch {
      return false;
    }
  },
  remember(token: string, sharing: boolean): void {
    try {
      if (sharing) localStorage.setItem(prefix + token, '1');
      else localStorage.removeItem(prefix + token);
    } catch {
      // Private browsing: the caller taps Share again after a reload.
    }
  },
};
