import type { JobPayload } from '@locus/contract';
import type { JobContext } from '../../processor';
import { databaseNow, deleteHistoryEndedBefore } from './repo';

/** `retention.purge`: location history is kept only as long as the retention policy says. */
export async function retentionPurge(
  payload: JobPayload<'retentionPurge'>,
  { db, log }: JobContext,
): Promise<{ deleted: number }> {
  const now = await databaseNow(db);
  const cutoff = new Date(now.getTime() - payload.olderThanDays * 24 * 3600 * 1000);
  const deleted = await deleteHistoryEndedBefore(db, cutoff);
  log.info({ deleted, cutoff }, 'retention purge done');
  return { deleted };
}
