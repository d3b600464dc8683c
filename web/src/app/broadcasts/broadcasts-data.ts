import type { Broadcast } from '@locus/contract';
import { api, expect } from '../api';

/**
 * The broadcasts showing now, in TanStack Query's cache: the console socket writes every
 * `broadcasts` frame here, so the banner and the operators' list on `/admin/dev` read one source.
 */
export const currentBroadcastsKey = ['broadcasts', 'current'] as const;

export async function fetchCurrentBroadcasts(): Promise<Broadcast[]> {
  return expect(await api.broadcasts.current(), 200).current;
}

/** Whether a broadcast still shows at `now` (its end time, if any, has not passed). */
export function isShowing(broadcast: Broadcast, now: number): boolean {
  return broadcast.endsAt === null || Date.parse(broadcast.endsAt) > now;
}
