import type { WorkerConfig } from '../../config';
import type { LocationLookupProvider } from './provider';
import { RapidSosLookupProvider } from './rapid-sos';
import { SimulatorLookupProvider } from './simulator';

export function lookupProviderFromConfig(config: WorkerConfig): LocationLookupProvider {
  if (config.LOOKUP_PROVIDER === 'simulator') return new SimulatorLookupProvider();
  return new RapidSosLookupProvider({
    baseUrl: config.RAPID_SOS_BASE_URL!.replace(/\/+$/, ''),
    clientId: config.RAPID_SOS_CLIENT_ID!,
    clientSecret: config.RAPID_SOS_CLIENT_SECRET!,
    timeoutMs: config.LOOKUP_TIMEOUT_MS,
    maxRateLimitRetries: 3,
  });
}

export { LookupError, type LocationLookupProvider, type LookupResult } from './provider';
