import {
  fixAt,
  phoneStatus,
  phoneStatusOrder,
  type PhoneStatus,
  type WatchFix,
  type WatchSettings,
  type WatchedPhone,
} from '@locus/contract';

/** One phone as the map and the list show it, live (`at` null) or at a moment of the timeline. */
export interface PhoneView {
  callerId: string;
  number: string;
  label: string | null;
  status: PhoneStatus;
  fix: WatchFix | undefined;
  /** Ms since the shown fix was captured, at the moment shown. */
  ageMs: number | null;
  jumpFlagged: boolean;
}

export function viewPhone(
  phone: WatchedPhone,
  number: string,
  label: string | null,
  settings: WatchSettings,
  now: number,
  at: number | null,
): PhoneView {
  const moment = at ?? now;
  const fix = fixAt(phone, at ?? undefined);
  // In the past only the fixes matter: whether the page was open then is not kept per moment.
  const status: PhoneStatus =
    at === null
      ? phoneStatus(phone, now, settings)
      : fix
        ? moment - fix.capturedAt > settings.staleAfterMs
          ? 'stale'
          : 'sharing'
        : 'never-opened';
  return {
    callerId: phone.callerId,
    number,
    label,
    status,
    fix,
    ageMs: fix ? Math.max(0, moment - fix.capturedAt) : null,
    jumpFlagged: fix?.impossibleJump ?? false,
  };
}

export type PhoneSort = 'status' | 'age' | 'name';

/**
 * The side list's order: what needs a look first (status; among stale phones the oldest fix
 * first), then by name, so phones sharing every second do not trade places under the pointer.
 * Or by the age of the last fix, or by name.
 */
export function sortPhones(views: PhoneView[], sort: PhoneSort): PhoneView[] {
  const rank = (view: PhoneView) => phoneStatusOrder.indexOf(view.status);
  const age = (view: PhoneView) => view.ageMs ?? Number.POSITIVE_INFINITY;
  const name = (view: PhoneView) => view.label ?? view.number;
  return [...views].sort((a, b) => {
    if (sort === 'name') return name(a).localeCompare(name(b));
    if (sort === 'age') return age(b) - age(a) || name(a).localeCompare(name(b));
    const byAge = a.status === 'stale' && b.status === 'stale' ? age(b) - age(a) : 0;
    return rank(a) - rank(b) || byAge || name(a).localeCompare(name(b));
  });
}

/** Matches the filter against the label and the number, digits alone matching the number. */
export function matchesFilter(view: PhoneView, filter: string): boolean {
  const text = filter.trim().toLowerCase();
  if (!text) return true;
  if (view.label?.toLowerCase().includes(text)) return true;
  const digits = text.replace(/\D/g, '');
  return digits.length > 0 && view.number.replace(/\D/g, '').includes(digits);
}

export function formatAge(ms: number | null): string {
  if (ms === null) return 'no fix yet';
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds} s ago`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min ago`;
}
