import type { QueryClient } from '@tanstack/react-query';

/**
 * Every cached admin list. Users, memberships, teams and verification show one another (a
 * team's member count, the invite modal's teams, a team created by an approval), so a change to
 * any of them refreshes them all rather than leaving one stale for a minute.
 */
const adminQueryRoots = [['admin-users'], ['team-members'], ['teams'], ['verification']] as const;

export async function refreshAdminData(queryClient: QueryClient): Promise<void> {
  await Promise.all(adminQueryRoots.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
}
