import type { PublicConfig } from '@locus/contract';
import { useQuery } from '@tanstack/react-query';
import { publicConfigClient } from './api';

export const publicConfigQueryKey = ['public-config'] as const;

/**
 * GET /api/v1/config. The settings change only with a deployment, so one fetch per page load
 * is enough. While it loads (or if it fails) the site renders without the parts that need it:
 * the demo video, the configured footer links and the captcha.
 */
export function usePublicConfig() {
  return useQuery({
    queryKey: publicConfigQueryKey,
    queryFn: async (): Promise<PublicConfig> => {
      const response = await publicConfigClient.get();
      if (response.status !== 200)
        throw new Error(`GET /api/v1/config answered ${response.status}`);
      return response.body;
    },
    staleTime: Infinity,
    gcTime: Infinity,
    retry: 2,
  });
}
