import type { ApiKey, CreateApiKeyInput } from '@locus/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, expect } from '../../app/api';

const apiKeysKey = (teamId: string) => ['api-keys', teamId] as const;

/** GET /api/v1/teams/:teamId/api-keys: the team's keys, newest first, without secrets. */
export function useApiKeys(teamId: string) {
  return useQuery({
    queryKey: apiKeysKey(teamId),
    queryFn: async () => (await expect(await api.apiKeys.list({ params: { teamId } }), 200)).keys,
  });
}

/** Creates a key; the answer's `secret` is shown once by the caller and kept nowhere. */
export function useCreateApiKey(teamId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: CreateApiKeyInput) =>
      expect(await api.apiKeys.create({ params: { teamId }, body }), 201),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiKeysKey(teamId) }),
  });
}

export function useRevokeApiKey(teamId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) =>
      expect(await api.apiKeys.revoke({ params: { teamId, id } }), 200),
    onSuccess: (key: ApiKey) => {
      queryClient.setQueryData<ApiKey[]>(apiKeysKey(teamId), (keys) =>
        keys?.map((each) => (each.id === key.id ? key : each)),
      );
    },
  });
}
