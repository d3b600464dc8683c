import type { CreateWebhookInput, UpdateWebhookInput, Webhook } from '@locus/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, expect } from '../../app/api';

const webhooksKey = (teamId: string) => ['webhooks', teamId] as const;
const deliveriesKey = (teamId: string, id: string) => ['webhook-deliveries', teamId, id] as const;

/** GET /api/v1/teams/:teamId/webhooks: the team's endpoints, without their secrets. */
export function useWebhooks(teamId: string) {
  return useQuery({
    queryKey: webhooksKey(teamId),
    queryFn: async () =>
      (await expect(await api.teamWebhooks.list({ params: { teamId } }), 200)).webhooks,
  });
}

/** Adds an endpoint; the answer's `secret` is shown once by the caller and kept nowhere. */
export function useCreateWebhook(teamId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: CreateWebhookInput) =>
      expect(await api.teamWebhooks.create({ params: { teamId }, body }), 201),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhooksKey(teamId) }),
  });
}

export function useUpdateWebhook(teamId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, change }: { id: string; change: UpdateWebhookInput }) =>
      expect(await api.teamWebhooks.update({ params: { teamId, id }, body: change }), 200),
    onSuccess: (webhook: Webhook) =>
      queryClient.setQueryData<Webhook[]>(webhooksKey(teamId), (webhooks) =>
        webhooks?.map((each) => (each.id === webhook.id ? webhook : each)),
      ),
  });
}

export function useRemoveWebhook(teamId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) =>
      expect(await api.teamWebhooks.remove({ params: { teamId, id } }), 204),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhooksKey(teamId) }),
  });
}

/** An endpoint's newest deliveries; refreshed while any is still pending. */
export function useDeliveries(teamId: string, id: string) {
  return useQuery({
    queryKey: deliveriesKey(teamId, id),
    queryFn: async () =>
      (
        await expect(
          await api.teamWebhooks.deliveries({ params: { teamId, id }, query: { limit: 20 } }),
          200,
        )
      ).deliveries,
    refetchInterval: (query) =>
      query.state.data?.some((delivery) => delivery.status === 'pending') ? 2_000 : false,
  });
}

export function useResendDelivery(teamId: string, id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (deliveryId: string) =>
      expect(await api.teamWebhooks.resend({ params: { teamId, id, deliveryId } }), 202),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: deliveriesKey(teamId, id) }),
  });
}
