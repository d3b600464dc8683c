import { publicConfigQueryKey } from '../public-site/public-config';
import { transferStore } from './case-transfer/transfer-store';
import { queryClient } from './query-client';
import { sessionStore } from './session';

export const currentUserQueryKey = ['current-user'] as const;

/**
 * Logout (SPEC.md §4): clears the user, teams, token and so the auth header, and every cached
 * answer but the public settings: that cache is where a signed-in user's state lives until the
 * tracking work adds its own location state. It needs no request, so the shell (route guard,
 * rejected sessions) has it without downloading the API client.
 */
export function logout(): void {
  sessionStore.clear();
  // Offers to this user and a case they accepted must not show to whoever signs in next.
  transferStore.clear();
  queryClient.removeQueries({
    predicate: (query) => query.queryKey[0] !== publicConfigQueryKey[0],
  });
}
