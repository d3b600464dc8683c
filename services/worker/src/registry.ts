import { jobs, type JobKey } from '@locus/contract';
import { emailSend } from './jobs/email/send';
import { emailSweep } from './jobs/email/sweep';
import { accountsPurge } from './jobs/maintenance/accounts-purge';
import { retentionPurge } from './jobs/maintenance/retention-purge';
import { exportUpload } from './jobs/export/upload';
import { locationLookup } from './jobs/location/lookup';
import { smsSend } from './jobs/sms/send';
import { webhookDeliver } from './jobs/webhook/deliver';
import { webhookDispatch } from './jobs/webhook/dispatch';
import type { Processor } from './processor';

/** Every job of the contract and its processor. The worker will not start if one is missing. */
export const processors: { [K in JobKey]: Processor<K> } = {
  retentionPurge,
  emailSend,
  emailSweep,
  accountsPurge,
  locationLookup,
  smsSend,
  exportUpload,
  webhookDispatch,
  webhookDeliver,
};

export function missingProcessors(): string[] {
  return (Object.keys(jobs) as JobKey[])
    .filter((key) => typeof processors[key] !== 'function')
    .map((key) => jobs[key].name);
}
