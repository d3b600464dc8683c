import type { Database } from '@locus/db';
import { sql } from 'kysely';

/** SQL of the platform status (`service.ts` turns it into levels). */

export async function selectOne(db: Database): Promise<void> {
  await sql`select 1`.execute(db);
}

/** Every client connection of the server, and how many it allows. */
export async function serverConnections(
  db: Database,
): Promise<{ connections: number; maxConnections: number }> {
  const { rows } = await sql<{ connections: number; max_connections: number }>`
    select (select count(*) from pg_stat_activity where backend_type = 'client backend')::int
             as connections,
           current_setting('max_connections')::int as max_connections
  `.execute(db);
  return { connections: rows[0]!.connections, maxConnections: rows[0]!.max_connections };
}

/** This database's largest tables, with their indexes and TOAST. */
export async function largestTables(
  db: Database,
  limit: number,
): Promise<{ name: string; bytes: number }[]> {
  const { rows } = await sql<{ name: string; bytes: string }>`
    select c.relname as name, pg_total_relation_size(c.oid) as bytes
    from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where c.relkind in ('r', 'p') and n.nspname not in ('pg_catalog', 'information_schema')
      and n.nspname not like 'pg_toast%'
    order by pg_total_relation_size(c.oid) desc
    limit ${limit}
  `.execute(db);
  return rows.map((row) => ({ name: row.name, bytes: Number(row.bytes) }));
}

export interface DeliveryCounts {
  provider: string;
  sent: number;
  delivered: number;
  failed: number;
}

/**
 * Outbound texts written in the last hour, by provider: `sent` every one that was to leave,
 * `delivered` those the carrier confirmed, `failed` those refused or undelivered. A text not yet
 * handed to a provider is counted under "not sent yet".
 */
export async function textsOfLastHour(db: Database): Promise<DeliveryCounts[]> {
  const { rows } = await sql<DeliveryCounts>`
    select coalesce(provider, 'not sent yet') as provider,
           count(*)::int as sent,
           (count(*) filter (where status = 'delivered'))::int as delivered,
           (count(*) filter (where status in ('failed', 'undelivered')))::int as failed
    from sms_messages
    where direction = 'outbound' and created_at > now() - interval '1 hour'
    group by 1 order by 1
  `.execute(db);
  return rows;
}

/**
 * Outbound texts of the last hour that have failed by now, for the history's sparkline. Not "written
 * during the interval": a carrier's failure report comes seconds to minutes after the text, and
 * `sms_messages` records no time of failure.
 */
export async function textFailuresOfLastHour(db: Database): Promise<number> {
  const { rows } = await sql<{ failed: number }>`
    select count(*)::int as failed from sms_messages
    where direction = 'outbound' and status in ('failed', 'undelivered')
      and created_at > now() - interval '1 hour'
  `.execute(db);
  return rows[0]!.failed;
}

/**
 * E-mails written in the last hour, by provider: `delivered` those the provider accepted
 * (e-mail has no delivery receipt), `failed` those given up on.
 */
export async function emailsOfLastHour(db: Database): Promise<DeliveryCounts[]> {
  const { rows } = await sql<DeliveryCounts>`
    select coalesce(provider, 'not sent yet') as provider,
           count(*)::int as sent,
           (count(*) filter (where status = 'sent'))::int as delivered,
           (count(*) filter (where status = 'failed'))::int as failed
    from emails
    where created_at > now() - interval '1 hour'
    group by 1 order by 1
  `.execute(db);
  return rows;
}

/** The location provider's lookups asked in the last hour: how many, answered, found, p95. */
export async function lookupsOfLastHour(
  db: Database,
): Promise<{ lookups: number; answered: number; succeeded: number; p95Ms: number | null }> {
  const { rows } = await sql<{
    lookups: number;
    answered: number;
    succeeded: number;
    p95_ms: number | null;
  }>`
    select count(*)::int as lookups,
           (count(*) filter (where answered_at is not null))::int as answered,
           (count(*) filter (where status = 'found'))::int as succeeded,
           percentile_cont(0.95) within group (
             order by extract(epoch from answered_at - created_at) * 1000
           ) filter (where answered_at is not null) as p95_ms
    from location_lookups
    where created_at > now() - interval '1 hour'
  `.execute(db);
  const row = rows[0]!;
  return {
    lookups: row.lookups,
    answered: row.answered,
    succeeded: row.succeeded,
    p95Ms: row.p95_ms === null ? null : Math.round(Number(row.p95_ms)),
  };
}
