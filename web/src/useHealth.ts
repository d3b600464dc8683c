import type { Health } from '@locus/contract';
import { useEffect, useState } from 'react';

export type HealthState = { state: 'loading' } | { state: 'ok' | 'unavailable'; health?: Health };

/** Polls /api/v1/health so the shell shows whether the platform is up. */
export function useHealth(intervalMs = 10_000): HealthState {
  const [health, setHealth] = useState<HealthState>({ state: 'loading' });
  useEffect(() => {
    let cancelled = false;
    const check = async () => {
      try {
        const response = await fetch('/api/v1/health');
        const body = (await response.json()) as Health;
        if (!cancelled) setHealth({ state: body.status, health: body });
      } catch {
        if (!cancelled) setHealth({ state: 'unavailable' });
      }
    };
    void check();
    const timer = setInterval(() => void check(), intervalMs);
    return () => {
      cancelled = true;
      clearInterval(timer);
    };
  }, [intervalMs]);
  return health;
}
