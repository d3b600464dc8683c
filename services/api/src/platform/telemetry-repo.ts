import type { Database } from '@locus/db';
import { sql } from 'kysely';

/** SQL behind the scrape-time metrics (`metrics.ts`). */

/**
 * Outbound texts written in the last hour, by their status now: the figure the status screen's
 * texts card judges (`textsOfLastHour`), per status, for Prometheus.
 */
export async function smsOfLastHourByStatus(
  db: Database,
): Promise<{ status: string; count: number }[]> {
  const { rows } = await sql<{ status: string; count: number }>`
    select status, count(*)::int as count
    from sms_messages
    where direction = 'outbound' and created_at > now() - interval '1 hour'
    group by status order by status
  `.execute(db);
  return rows;
}
