import type { PublicConfig } from '@locus/contract';
import { useQuery } from '@tanstack/react-query';

export const publicConfigQueryKey = ['public-config'] as const;

/**
 * GET /api/v1/config. The settings change only with a deployment, so one fetch per page load
 * is enough. While it loads (or if it fails) the site renders without the parts that need it:
 * the demo video, the configured footer links and the captcha.
 *
 * A plain fetch, not the contract's client: every page asks for these settings, and the contract
 * (its schemas, libphonenumber) would more than double what the landing page downloads. The
 * answer comes from the same deployment as this script.
 */
export function usePublicConfig() {
  return useQuery({
    queryKey: publicConfigQueryKey,
    queryFn: async (): Promise<PublicConfig> => {
      const response = await fetch('/api/v1/config', { headers: { accept: 'application/json' } });
      if (response.status !== 200)
        throw new Error(`GET /api/v1/config answered ${response.status}`);
      return (await response.json()) as PublicConfig;
    },
    staleTime: Infinity,
    gcTime: Infinity,
    retry: 2,
  });
}
