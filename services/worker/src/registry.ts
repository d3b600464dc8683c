import { jobs, type JobKey } from '@locus/contract';
import { retentionPurge } from './jobs/maintenance/retention-purge';
import type { Processor } from './processor';

/** Every job of the contract and its processor. The worker will not start if one is missing. */
export const processors: { [K in JobKey]: Processor<K> } = {
  retentionPurge,
};

export function missingProcessors(): string[] {
  return (Object.keys(jobs) as JobKey[])
    .filter((key) => typeof processors[key] !== 'function')
    .map((key) => jobs[key].name);
}
