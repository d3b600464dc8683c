import type { CallerLink } from '@locus/contract';
import { useQuery } from '@tanstack/react-query';
import { api, expect } from '../app/api';

/** A caller link's token: 256 random bits, base64url. Anything else is not worth asking about. */
export const callerTokenPattern = /^[A-Za-z0-9_-]{43}$/;

/** The token of `/share?token=…`, or null when there is none that could be valid. */
export function callerToken(search: URLSearchParams): string | null {
  const token = search.get('token');
  return token !== null && callerTokenPattern.test(token) ? token : null;
}

/**
 * What the link says before the caller agrees to anything: who asks, in which language, or why
 * it no longer works. Reading it never consumes the link, and needs no dispatcher session.
 */
export function useCallerLink(token: string | null) {
  return useQuery<CallerLink>({
    queryKey: ['caller-link', token],
    queryFn: async () =>
      expect(await api.tracking.callerLink({ query: { token: token ?? '' } }), 200),
    enabled: token !== null,
    staleTime: Infinity,
  });
}

/** The page for a link that no longer works (a refused socket with a link still "active" included). */
export type LinkEnd = Exclude<CallerLink['status'], 'active'>;
