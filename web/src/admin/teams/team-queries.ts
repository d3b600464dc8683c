import { refreshAdminData } from '../admin-data';
import type { CustomContentBody, ManagedTeam, Team, TeamListQuery } from '@locus/contract';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, expect } from '../../app/api';
import { reloadCurrentUser } from '../../app/auth';

export const teamKeys = {
  all: ['teams'] as const,
  list: (query: TeamListQuery) => ['teams', 'list', query] as const,
  team: (id: string) => ['teams', 'one', id] as const,
  psaps: (id: string) => ['teams', 'psaps', id] as const,
  customContent: (id: string) => ['teams', 'custom-content', id] as const,
};

/** GET /api/v1/teams: every team (platform admins) or the teams the user administers. */
export function useTeamList(query: TeamListQuery) {
  return useQuery({
    queryKey: teamKeys.list(query),
    queryFn: async () => expect(await api.teams.list({ query }), 200),
    // The table keeps its rows while the next page or search loads, so it does not jump.
    placeholderData: keepPreviousData,
  });
}

export function useManagedTeam(id: string) {
  return useQuery({
    queryKey: teamKeys.team(id),
    queryFn: async () => expect(await api.teams.get({ params: { id } }), 200),
    retry: false,
  });
}

export function useTeamPsaps(id: string) {
  return useQuery({
    queryKey: teamKeys.psaps(id),
    queryFn: async () => expect(await api.teams.psaps({ params: { id } }), 200),
  });
}

export function useCustomContent(id: string) {
  return useQuery({
    queryKey: teamKeys.customContent(id),
    queryFn: async () => expect(await api.teams.getCustomContent({ params: { id } }), 200),
  });
}

/**
 * After a team changed: the admin's own lists and views of it, and (when the admin is one of its
 * members) their own session's teams, so that the console's menus show its new name, level or
 * links at once. Members see them after their next reload or sign-in.
 */
export function useTeamChanged() {
  const queryClient = useQueryClient();
  return async (team: Pick<ManagedTeam, 'id'>, sessionTeams: readonly Team[]) => {
    await refreshAdminData(queryClient);
    if (sessionTeams.some((own) => own.id === team.id)) await reloadCurrentUser();
  };
}

export type { CustomContentBody };
