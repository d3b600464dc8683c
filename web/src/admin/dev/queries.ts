import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api, ApiError, expect } from '../../app/api';

/**
 * How often the open screen reads the status again. The server samples every 10 s and an
 * instance beats every 5 s: 3 s shows a stopped worker turn red within one beat of its expiry.
 */
export const STATUS_REFRESH_MS = 3_000;

export const platformKeys = {
  all: ['platform'] as const,
  status: ['platform', 'status'] as const,
  failedJobs: (page: number, pageSize: number) =>
    ['platform', 'failed-jobs', page, pageSize] as const,
  config: ['platform', 'config'] as const,
};

/** The platform's health, read again every few seconds while the screen is open. */
export function usePlatformStatus() {
  return useQuery({
    queryKey: platformKeys.status,
    queryFn: async () => expect(await api.platformStatus.status(), 200),
    refetchInterval: STATUS_REFRESH_MS,
    staleTime: 0,
    // The status is the point of the screen: keep the last one on screen while a read fails.
    placeholderData: (previous) => previous,
  });
}

export function useFailedJobs(page: number, pageSize: number) {
  return useQuery({
    queryKey: platformKeys.failedJobs(page, pageSize),
    queryFn: async () =>
      expect(await api.platformJobs.failedJobs({ query: { page, pageSize } }), 200),
    // New failures show while the screen is open, at the pace of the status cards' "failed".
    refetchInterval: STATUS_REFRESH_MS * 5,
    staleTime: 0,
    placeholderData: (previous) => previous,
  });
}

/** Read only once the section is opened: nobody needs it on the 3 a.m. path. */
export function usePlatformConfig(enabled: boolean) {
  return useQuery({
    queryKey: platformKeys.config,
    queryFn: async () => expect(await api.platformJobs.config(), 200),
    enabled,
  });
}

/** After a retry or a discard: the failed jobs and the queue figures of the status. */
export function useRefreshPlatform() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: platformKeys.all });
}

/** What a failed request says: the server's message, or a plain fallback. */
export function failureMessage(error: unknown): string {
  return error instanceof ApiError && error.body?.message
    ? error.body.message
    : 'Something went wrong with your request. Please try again.';
}
