import type { CallList } from '@locus/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api, ApiError, expect } from '../../app/api';

export const callListKeys = {
  team: (teamId: string) => ['call-lists', teamId] as const,
  numbers: (listId: string) => ['call-list', listId, 'numbers'] as const,
  users: (listId: string) => ['call-list', listId, 'users'] as const,
  teamUsers: (teamId: string) => ['team-users', teamId] as const,
};

export function useTeamCallLists(teamId: string) {
  return useQuery({
    queryKey: callListKeys.team(teamId),
    queryFn: async () => expect(await api.callLists.teamLists({ params: { teamId } }), 200),
  });
}

export function useCallListNumbers(listId: string) {
  return useQuery({
    queryKey: callListKeys.numbers(listId),
    queryFn: async () => expect(await api.callLists.listNumbers({ params: { id: listId } }), 200),
  });
}

export function useCallListUsers(listId: string) {
  return useQuery({
    queryKey: callListKeys.users(listId),
    queryFn: async () => expect(await api.callLists.listUsers({ params: { id: listId } }), 200),
  });
}

export function useTeamUsers(teamId: string) {
  return useQuery({
    queryKey: callListKeys.teamUsers(teamId),
    queryFn: async () => expect(await api.callLists.teamUsers({ params: { teamId } }), 200),
  });
}

/** After a change to a list: its team's lists (names, counts) and the list's own queries. */
export function useRefreshCallList() {
  const queryClient = useQueryClient();
  return async (list: Pick<CallList, 'id' | 'teamId'>) => {
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: callListKeys.team(list.teamId) }),
      queryClient.invalidateQueries({ queryKey: ['call-list', list.id] }),
    ]);
  };
}

/** What a failed change says: the server's message, or a plain fallback. */
export function failureMessage(error: unknown): string {
  if (error instanceof ApiError && error.code === 'rate-limited')
    return 'Too many requests. Please wait a minute and try again.';
  return error instanceof ApiError && error.body?.message
    ? error.body.message
    : 'Something went wrong with your request. Please try again.';
}
