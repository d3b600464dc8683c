import type { AuthToken, CurrentUser, Team } from '@locus/contract';
import { useSyncExternalStore } from 'react';
import type { ZodType, ZodTypeDef } from 'zod';
import { loadContract, loadedContract } from './contract';

/**
 * The signed-in session, kept in local storage (SPEC.md §3 "Local storage"): the bearer token,
 * its expiry in seconds since the epoch, and the cached current user and teams, so that a reload
 * renders the right menus before the API has answered.
 */
export interface Session {
  token: string | null;
  /** Seconds since the epoch. */
  expiresAt: number | null;
  user: CurrentUser | null;
  teams: Team[];
}

export const storageKeys = {
  token: 'locus.token',
  expiresAt: 'locus.tokenExpiresAt',
  user: 'locus.user',
  teams: 'locus.teams',
} as const;

const empty: Session = { token: null, expiresAt: null, user: null, teams: [] };

export function nowInSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

/** SPEC.md §5: valid only while the stored expiry is in the future, in seconds. */
export function isSessionValid(session: Session, now = nowInSeconds()): boolean {
  return session.token !== null && session.expiresAt !== null && session.expiresAt > now;
}

// Any input type: a schema's defaults fill in what a user cached by an older app version lacks.
function readJson<T>(key: string, schema: ZodType<T, ZodTypeDef, unknown>): T | null {
  const raw = localStorage.getItem(key);
  if (raw === null) return null;
  try {
    const parsed = schema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

function hasStoredToken(): boolean {
  return localStorage.getItem(storageKeys.token) !== null;
}

/**
 * Anything unreadable (an older app version, a hand edit) counts as signed out. The user and
 * teams are checked against the contract's schemas, so they are read once it has loaded
 * (`restoreSession`); until then a stored token comes without a user.
 */
function load(): Session {
  const token = localStorage.getItem(storageKeys.token);
  const expiresAt = Number(localStorage.getItem(storageKeys.expiresAt));
  if (!token || !Number.isFinite(expiresAt) || expiresAt <= 0) return empty;
  const contract = loadedContract();
  return {
    token,
    expiresAt,
    user: contract && readJson(storageKeys.user, contract.CurrentUser),
    teams: (contract && readJson(storageKeys.teams, contract.Team.array())) ?? [],
  };
}

function save(session: Session): void {
  const entries: Array<[string, string | null]> = [
    [storageKeys.token, session.token],
    [storageKeys.expiresAt, session.expiresAt === null ? null : String(session.expiresAt)],
    [storageKeys.user, session.user === null ? null : JSON.stringify(session.user)],
    [storageKeys.teams, session.user === null ? null : JSON.stringify(session.teams)],
  ];
  for (const [key, value] of entries) {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  }
}

let current: Session = load();
const listeners = new Set<() => void>();

function publish(next: Session): void {
  current = next;
  save(next);
  for (const listener of listeners) listener();
}

function reload(): void {
  current = load();
  for (const listener of listeners) listener();
}

/**
 * Reads the stored session with the contract at hand to check it. The app renders once this
 * has settled (main.tsx): a visitor who is not signed in never waits for, or downloads, the
 * contract. If it cannot be downloaded the page shows signed out, and the stored session stays
 * for the next page load.
 */
export async function restoreSession(): Promise<void> {
  if (!hasStoredToken()) return;
  try {
    await loadContract();
  } catch (error) {
    console.warn(error);
    return;
  }
  reload();
}

// Another tab signing in or out changes this tab's session too.
window.addEventListener('storage', (event) => {
  if (event.key === null || Object.values<string>(storageKeys).includes(event.key)) {
    if (hasStoredToken() && loadedContract() === null) void restoreSession();
    else reload();
  }
});

export const sessionStore = {
  get: (): Session => current,
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  /** A new token (sign-in or sign-up). The user is loaded with it right after. */
  setToken(token: AuthToken): void {
    publish({
      ...empty,
      token: token.token,
      expiresAt: Math.floor(Date.parse(token.expiresAt) / 1000),
    });
  },
  setUser(user: CurrentUser, teams: Team[]): void {
    // The console re-reads the user every few seconds (`useFreshUser`): an unchanged answer must
    // not re-render the app (a form being typed in resets when its user changes).
    if (JSON.stringify([user, teams]) === JSON.stringify([current.user, current.teams])) return;
    publish({ ...current, user, teams });
  },
  /** Logout: clears the user, the teams and the token (and so the auth header). */
  clear(): void {
    publish(empty);
  },
};

export function useSession(): Session {
  return useSyncExternalStore(sessionStore.subscribe, sessionStore.get);
}
