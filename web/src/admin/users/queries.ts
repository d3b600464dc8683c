import { refreshAdminData } from '../admin-data';
import type { AdminUserDetail, TeamRole, UsersListQuery } from '@locus/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, expect } from '../../app/api';

export { failureMessage } from '../teams/queries';

export const userKeys = {
  all: ['admin-users'] as const,
  list: (query: Partial<UsersListQuery>) => ['admin-users', 'list', query] as const,
  detail: (id: string) => ['admin-users', 'detail', id] as const,
  teamMembers: (teamId: string, page: number) => ['team-members', teamId, page] as const,
};

/** One page of the users table; the previous page stays on screen while the next loads. */
export function useUsersPage(query: Partial<UsersListQuery>) {
  return useQuery({
    queryKey: userKeys.list(query),
    queryFn: async () => expect(await api.usersAdmin.list({ query }), 200),
    placeholderData: keepPreviousData,
  });
}

export function useUserDetail(id: string | null) {
  return useQuery({
    queryKey: userKeys.detail(id ?? ''),
    queryFn: async () => expect(await api.usersAdmin.detail({ params: { id: id! } }), 200),
    enabled: id !== null,
  });
}

/** Every team the platform admin may filter by or invite to (the teams helper's list). */
export function useAllTeams(enabled: boolean) {
  return useQuery({
    queryKey: ['admin-users', 'teams'],
    queryFn: async () => expect(await api.teams.list({ query: { page: 1, pageSize: 100 } }), 200),
    enabled,
  });
}

export function useTeamMembers(teamId: string, page: number) {
  return useQuery({
    queryKey: userKeys.teamMembers(teamId, page),
    queryFn: async () =>
      expect(
        await api.teamMembers.list({ params: { id: teamId }, query: { page, pageSize: 25 } }),
        200,
      ),
    placeholderData: keepPreviousData,
  });
}

/** After any change to users or memberships: every users table, drawer and members list. */
function useRefreshUsers() {
  const queryClient = useQueryClient();
  return () => refreshAdminData(queryClient);
}

export function useUnlock() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (userId: string) =>
      expect(await api.usersAdmin.unlock({ params: { id: userId } }), 200),
    onSuccess: (detail: AdminUserDetail) => {
      queryClient.setQueryData(userKeys.detail(detail.id), detail);
    },
  });
}

export function useChangeRole() {
  const refresh = useRefreshUsers();
  return useMutation({
    mutationFn: async (change: { teamId: string; userId: string; role: TeamRole }) =>
      expect(
        await api.teamMembers.changeRole({
          params: { id: change.teamId, userId: change.userId },
          body: { role: change.role },
        }),
        200,
      ),
    onSettled: refresh,
  });
}

export function useRemoveMember() {
  const refresh = useRefreshUsers();
  return useMutation({
    mutationFn: async (change: { teamId: string; userId: string }) =>
      expect(
        await api.teamMembers.remove({
          params: { id: change.teamId, userId: change.userId },
        }),
        204,
      ),
    onSuccess: refresh,
  });
}

export function useInvite() {
  const refresh = useRefreshUsers();
  return useMutation({
    mutationFn: async (body: {
      teamId: string;
      users: { firstName: string; lastName: string; email: string; role: TeamRole }[];
    }) => expect(await api.auth.groupRegister({ body }), 200),
    onSuccess: refresh,
  });
}
