import type { LegalHoldInput, TeamSessionDetail } from '@locus/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, expect } from '../../app/api';

// The admin screens' one wording of a refused request (rate limits included).
export { failureMessage } from '../teams/queries';

const sessionsKey = (teamId: string) => ['team-sessions', teamId] as const;
const sessionKey = (teamId: string, id: string) => ['team-sessions', teamId, id] as const;

/** GET /api/v1/teams/:teamId/sessions, a page at a time. */
export function useTeamSessions(teamId: string, page: number, pageSize: number) {
  return useQuery({
    queryKey: [...sessionsKey(teamId), { page, pageSize }],
    queryFn: async () =>
      expect(await api.teamSessions.list({ params: { teamId }, query: { page, pageSize } }), 200),
    placeholderData: keepPreviousData,
  });
}

/** Exports in progress change on their own: the page looks again every few seconds. */
const moving = new Set(['queued', 'writing', 'retrying']);

export function useTeamSession(teamId: string, id: string) {
  return useQuery({
    queryKey: sessionKey(teamId, id),
    queryFn: async () => expect(await api.teamSessions.get({ params: { teamId, id } }), 200),
    // Followed for an hour at most: an attempt stuck that long (its worker died) is not moving.
    refetchInterval: (query) =>
      query.state.data &&
      moving.has(query.state.data.export.state) &&
      query.state.dataUpdateCount < 1_800
        ? 2_000
        : false,
  });
}

function useSessionMutation<T>(
  teamId: string,
  id: string,
  run: (input: T) => Promise<TeamSessionDetail | null>,
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSuccess: async (detail) => {
      if (detail) queryClient.setQueryData(sessionKey(teamId, id), detail);
      else await queryClient.invalidateQueries({ queryKey: sessionKey(teamId, id) });
      await queryClient.invalidateQueries({ queryKey: sessionsKey(teamId), exact: false });
    },
  });
}

export function useSetLegalHold(teamId: string, id: string) {
  return useSessionMutation(teamId, id, async (body: LegalHoldInput) =>
    expect(await api.teamSessions.setLegalHold({ params: { teamId, id }, body }), 200),
  );
}

export function useReleaseLegalHold(teamId: string, id: string) {
  return useSessionMutation(teamId, id, async () =>
    expect(await api.teamSessions.releaseLegalHold({ params: { teamId, id } }), 200),
  );
}

export function useExportNow(teamId: string, id: string) {
  return useSessionMutation(teamId, id, async () => {
    expect(await api.teamSessions.exportNow({ params: { teamId, id } }), 202);
    return null;
  });
}

/** GET /api/v1/evidence/signing-keys: the public keys evidence files are checked against. */
export function useSigningKeys() {
  return useQuery({
    queryKey: ['evidence-signing-keys'],
    queryFn: async () => (await expect(await api.evidenceKeys.signingKeys(), 200)).keys,
    staleTime: 5 * 60_000,
  });
}
