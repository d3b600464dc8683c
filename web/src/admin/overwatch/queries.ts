import type { OverwatchGroup, OverwatchGroupInput } from '@locus/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, expect } from '../../app/api';

export const overwatchKeys = {
  all: ['overwatch-groups'] as const,
  list: (archived: boolean) => ['overwatch-groups', 'list', archived] as const,
  group: (id: string) => ['overwatch-groups', 'one', id] as const,
};

/** GET /api/v1/overwatch/groups: the groups of the admin's teams, archived ones or the others. */
export function useOverwatchGroups(archived: boolean, enabled = true) {
  return useQuery({
    enabled,
    queryKey: overwatchKeys.list(archived),
    queryFn: async () =>
      expect(await api.overwatch.groups({ query: { archived: archived ? 'true' : 'false' } }), 200),
  });
}

export function useOverwatchGroup(id: string, enabled = true) {
  return useQuery({
    queryKey: overwatchKeys.group(id),
    queryFn: async () => expect(await api.overwatch.group({ params: { id } }), 200),
    enabled,
    retry: false,
  });
}

/** After any change: every list, and the changed group's own query with its new state. */
function useGroupChanged() {
  const queryClient = useQueryClient();
  return async (group: OverwatchGroup) => {
    queryClient.setQueryData(overwatchKeys.group(group.id), group);
    await queryClient.invalidateQueries({ queryKey: ['overwatch-groups', 'list'] });
  };
}

/** Create (id null) or replace a group. */
export function useSaveGroup(id: string | null) {
  const changed = useGroupChanged();
  return useMutation({
    mutationFn: async (body: OverwatchGroupInput) =>
      id === null
        ? expect(await api.overwatch.createGroup({ body }), 201)
        : expect(await api.overwatch.updateGroup({ params: { id }, body }), 200),
    onSuccess: changed,
  });
}

export function useArchiveGroup() {
  const changed = useGroupChanged();
  return useMutation({
    mutationFn: async ({ id, archive }: { id: string; archive: boolean }) =>
      archive
        ? expect(await api.overwatch.archiveGroup({ params: { id }, body: {} }), 200)
        : expect(await api.overwatch.restoreGroup({ params: { id }, body: {} }), 200),
    onSuccess: changed,
  });
}

/** The numbers of one call list (its stored numbers and attached users' phones). */
export async function callListNumbers(listId: string) {
  return expect(await api.callLists.numbers({ params: { listIds: listId } }), 200);
}

/** A notice's close button is an icon alone: it needs a name (WCAG 4.1.2). */
export const closableNotice = { closeButtonProps: { 'aria-label': 'Close notice' } };
