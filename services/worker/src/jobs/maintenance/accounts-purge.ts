import type { JobPayload } from '@locus/contract';
import type { JobContext } from '../../processor';
import { deleteDeadCredentials, deleteUnconfirmableAccounts } from './repo';

/** `accounts.purge` (hourly): never-confirmable duplicate accounts, long-dead sessions and codes. */
export async function accountsPurge(
  _payload: JobPayload<'accountsPurge'>,
  { db, log }: JobContext,
): Promise<{ accounts: number; credentials: number }> {
  const accounts = await deleteUnconfirmableAccounts(db);
  const credentials = await deleteDeadCredentials(db);
  log.info({ accounts, credentials }, 'accounts purge done');
  return { accounts, credentials };
}
