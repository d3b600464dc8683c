import { refreshAdminData } from '../admin-data';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api, ApiError, expect } from '../../app/api';

export const verificationKeys = {
  all: ['verification'] as const,
  queue: (page: number, pageSize: number) => ['verification', 'queue', page, pageSize] as const,
  teams: ['verification', 'teams'] as const,
  domains: ['verification', 'domains'] as const,
};

export function useVerificationQueue(page: number, pageSize: number) {
  return useQuery({
    queryKey: verificationKeys.queue(page, pageSize),
    queryFn: async () => expect(await api.verification.queue({ query: { page, pageSize } }), 200),
    placeholderData: (previous) => previous,
  });
}

export function useAttachableTeams(enabled: boolean) {
  return useQuery({
    queryKey: verificationKeys.teams,
    queryFn: async () => expect(await api.verification.teams(), 200),
    enabled,
  });
}

export function useClearedDomains() {
  return useQuery({
    queryKey: verificationKeys.domains,
    queryFn: async () => expect(await api.verification.domains(), 200),
  });
}

/** After a decision or a domain change: the queue (and the teams, one may have been created). */
export function useRefreshVerification() {
  const queryClient = useQueryClient();
  return () => refreshAdminData(queryClient);
}

/** The server's message for a field (`issues`), if it named this one. */
export function fieldIssue(error: unknown, field: string): string | null {
  if (!(error instanceof ApiError)) return null;
  return error.body?.issues?.find((issue) => issue.path === field)?.message ?? null;
}

/** What a failed request says: the server's message, or a plain fallback. */
export function failureMessage(error: unknown): string {
  return error instanceof ApiError && error.body?.message
    ? error.body.message
    : 'Something went wrong with your request. Please try again.';
}

/** A notice's close button is an icon alone: it needs a name (WCAG 4.1.2). */
export const closableNotice = { closeButtonProps: { 'aria-label': 'Close notice' } };
