import type { JobPayload } from '@locus/contract';
import type { Database } from '@locus/db';
import type { JobContext } from '../../processor';
import {
  countHeldSessions,
  databaseNow,
  deleteQueuedMediaFiles,
  deletePartnerCopies,
  purgeHistoryBatch,
  recordRetentionPurge,
  teamRetentions,
  type PurgedHistory,
  type RetentionScope,
} from './repo';

const dayMs = 24 * 3600 * 1000;

/**
 * Sessions whose history one transaction deletes at most. Batches rather than one transaction
 * per team: a team that shortens its retention, or a deployment's first purge of chat, can leave
 * years of history past the cut-off, and one transaction over all of it would hold its locks and
 * its undeleted row versions for as long as that takes. Each batch commits with the audit row
 * that records it, so nothing is ever deleted without its record, even when the job dies
 * halfway (its retry finds only what is left). A team's daily share is far below a batch, so a
 * team gets one row per run; a backlog gets one row per batch, each with its own counts.
 */
export const sessionsPerBatch = 200;

export interface RetentionPolicy extends RetentionScope {
  retentionDays: number;
}

export type PurgedTeam = PurgedHistory & { heldSessionsKept: number; batches: number };

const nothing = (): PurgedHistory => ({
  sessions: 0,
  fixes: 0,
  events: 0,
  lookups: 0,
  texts: 0,
  chat: 0,
  consentReceipts: 0,
  media: 0,
});

/** Purges one team's (or the team-less sessions') history past its cut-off; audited per batch. */
export async function purgeTeamHistory(
  db: Database,
  policy: RetentionPolicy,
  batchSize = sessionsPerBatch,
): Promise<PurgedTeam> {
  const heldSessionsKept = await countHeldSessions(db, policy);
  const total = nothing();
  let batches = 0;
  let afterId: string | null = null;
  for (;;) {
    const batch = await db.transaction().execute(async (trx) => {
      const purged = await purgeHistoryBatch(trx, policy, afterId, batchSize);
      if (purged.sessions > 0) {
        await recordRetentionPurge(trx, policy.teamId, {
          cutoff: policy.cutoff.toISOString(),
          retentionDays: policy.retentionDays,
          sessions: purged.sessions,
          fixes: purged.fixes,
          events: purged.events,
          chat: purged.chat,
          texts: purged.texts,
          lookups: purged.lookups,
          consentReceipts: purged.consentReceipts,
          // Named only when there were some, so that rows of sessions without media read as before.
          ...(purged.media > 0 ? { media: purged.media } : {}),
          heldSessionsKept,
        });
      }
      return purged;
    });
    if (batch.sessions > 0) batches += 1;
    for (const key of Object.keys(total) as (keyof PurgedHistory)[]) total[key] += batch[key];
    if (batch.picked < batchSize || batch.lastId === null) break;
    afterId = batch.lastId;
  }
  return { ...total, heldSessionsKept, batches };
}

/**
 * `retention.purge` (daily): each team's ended sessions lose their history once they are older
 * than the team's own retention (`teams.retention_days`), or the deployment's default
 * (`olderThanDays`, `LOCATION_RETENTION_DAYS`) for teams without one and sessions with no team;
 * sessions under a legal hold are kept whole.
 */
export async function retentionPurge(
  payload: JobPayload<'retentionPurge'>,
  { db, log, mediaStorage }: JobContext,
): Promise<{ teams: number; sessions: number; rows: number; partnerRows: number }> {
  // The database's clock, like the `ended_at` it is compared with.
  const now = await databaseNow(db);
  const cutoffAfter = (days: number) => new Date(now.getTime() - days * dayMs);
  const policies: RetentionPolicy[] = [
    ...(await teamRetentions(db)).map((team) => {
      const retentionDays = team.retention_days ?? payload.olderThanDays;
      return { teamId: team.id, retentionDays, cutoff: cutoffAfter(retentionDays) };
    }),
    {
      teamId: null,
      retentionDays: payload.olderThanDays,
      cutoff: cutoffAfter(payload.olderThanDays),
    },
  ];
  let teams = 0;
  let sessions = 0;
  let rows = 0;
  for (const policy of policies) {
    const purged = await purgeTeamHistory(db, policy);
    if (purged.sessions === 0) continue;
    teams += 1;
    sessions += purged.sessions;
    rows +=
      purged.fixes +
      purged.events +
      purged.lookups +
      purged.texts +
      purged.chat +
      purged.consentReceipts +
      purged.media;
    log.info({ teamId: policy.teamId, cutoff: policy.cutoff, ...purged }, 'team history purged');
  }
  // Also what an earlier run queued and did not get to (it died, or storage was down).
  const files = await deleteQueuedMediaFiles(db, mediaStorage);
  if (files > 0) log.info({ files }, 'purged media files deleted');
  const partnerRows = await deletePartnerCopies(db, cutoffAfter(payload.olderThanDays));
  log.info({ teams, sessions, rows, partnerRows }, 'retention purge done');
  return { teams, sessions, rows, partnerRows };
}
