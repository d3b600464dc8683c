import { sql } from 'kysely';
import type { Database } from '../connection';
import type { HistoryBatch } from './generate';

/**
 * Each table's columns as history fills them, with their Postgres types. One statement per table
 * and batch, `insert … select * from unnest($1::uuid[], $2::timestamptz[], …)`: one parameter per
 * column whatever the number of rows, so a batch of thousands is one round trip and never meets
 * the 65,535-parameter limit of a multi-row VALUES.
 */
const tables = {
  tracking_sessions: {
    rows: 'sessions',
    columns: {
      id: 'uuid',
      team_id: 'uuid',
      created_by: 'uuid',
      dispatcher_id: 'uuid',
      status: 'text',
      lifecycle: 'text',
      created_at: 'timestamptz',
      last_active_at: 'timestamptz',
      ended_at: 'timestamptz',
      location_type: 'text',
      request_error: 'text',
      chat_initiated_at: 'timestamptz',
      first_fix_at: 'timestamptz',
      first_fix_source: 'text',
      first_fix_uncertainty_m: 'float8',
      best_uncertainty_m: 'float8',
      texts_sent: 'int4',
      lookup_requested_at: 'timestamptz',
      lookup_answered_at: 'timestamptz',
    },
  },
  session_callers: {
    rows: 'callers',
    columns: {
      id: 'uuid',
      session_id: 'uuid',
      phone_number: 'text',
      language: 'text',
      created_at: 'timestamptz',
      text_code: 'text',
      link_opened_at: 'timestamptz',
      prompt_shown_at: 'timestamptz',
      shared_at: 'timestamptz',
      denied_at: 'timestamptz',
      chat_opened_at: 'timestamptz',
      texts_sent: 'int4',
      first_text_at: 'timestamptz',
      text_delivered_at: 'timestamptz',
    },
  },
  location_lookups: {
    rows: 'lookups',
    columns: {
      id: 'uuid',
      session_id: 'uuid',
      caller_id: 'uuid',
      status: 'text',
      error: 'text',
      latitude: 'float8',
      longitude: 'float8',
      uncertainty_radius_m: 'float8',
      captured_at: 'timestamptz',
      created_at: 'timestamptz',
      answered_at: 'timestamptz',
    },
  },
  sms_messages: {
    rows: 'texts',
    columns: {
      id: 'uuid',
      direction: 'text',
      session_id: 'uuid',
      caller_id: 'uuid',
      phone_number: 'text',
      body: 'text',
      language: 'text',
      status: 'text',
      provider: 'text',
      provider_message_id: 'text',
      error: 'text',
      created_at: 'timestamptz',
      sent_at: 'timestamptz',
    },
  },
  location_fixes: {
    rows: 'fixes',
    columns: {
      session_id: 'uuid',
      seq: 'int4',
      caller_id: 'uuid',
      latitude: 'float8',
      longitude: 'float8',
      uncertainty_radius_m: 'float8',
      source: 'text',
      captured_at: 'timestamptz',
      received_at: 'timestamptz',
    },
  },
  chat_messages: {
    rows: 'chats',
    columns: {
      id: 'uuid',
      session_id: 'uuid',
      caller_id: 'uuid',
      seq: 'int4',
      sender: 'text',
      sender_user_id: 'uuid',
      sender_name: 'text',
      body: 'text',
      language: 'text',
      quick_reply: 'text',
      translation_language: 'text',
      translation_text: 'text',
      translation_status: 'text',
      sent_at: 'timestamptz',
    },
  },
  case_transfers: {
    rows: 'transfers',
    columns: {
      id: 'uuid',
      session_id: 'uuid',
      team_id: 'uuid',
      from_user_id: 'uuid',
      to_user_id: 'uuid',
      status: 'text',
      machine_snapshot: 'jsonb',
      offered_at: 'timestamptz',
      expires_at: 'timestamptz',
      decided_at: 'timestamptz',
    },
  },
  audit_log: {
    rows: 'signIns',
    columns: {
      action: 'text',
      actor_user_id: 'uuid',
      subject: 'text',
      detail: 'jsonb',
      team_id: 'uuid',
      ip: 'text',
      at: 'timestamptz',
    },
  },
} as const satisfies Record<string, { rows: keyof HistoryBatch; columns: Record<string, string> }>;

export type HistoryTable = keyof typeof tables;
export type HistoryCounts = Record<HistoryTable, number>;

export const zeroCounts = (): HistoryCounts => ({
  tracking_sessions: 0,
  session_callers: 0,
  location_lookups: 0,
  sms_messages: 0,
  location_fixes: 0,
  chat_messages: 0,
  case_transfers: 0,
  audit_log: 0,
});

/**
 * Writes one batch in one statement, each table's rows in a data-modifying `with` clause: one
 * round trip, and the foreign keys are checked at the statement's end, when the sessions and
 * callers the other rows point to are there. Adds the rows written to `counts`.
 */
export async function insertHistoryBatch(
  db: Database,
  batch: HistoryBatch,
  counts: HistoryCounts = zeroCounts(),
): Promise<HistoryCounts> {
  const inserts = [];
  for (const [table, spec] of Object.entries(tables) as [
    HistoryTable,
    (typeof tables)[HistoryTable],
  ][]) {
    const rows = batch[spec.rows] as readonly Record<string, unknown>[];
    if (rows.length === 0) continue;
    const names = Object.keys(spec.columns);
    const types = Object.values(spec.columns) as string[];
    // Instants as ISO strings: much cheaper than letting pg format each Date in local time.
    const arrays = names.map((name) =>
      rows.map((row) => {
        const value = row[name] ?? null;
        return value instanceof Date ? value.toISOString() : value;
      }),
    );
    inserts.push(sql`${sql.id(`insert_${table}`)} as (
      insert into ${sql.table(table)} (${sql.join(names.map((name) => sql.ref(name)))})
      select * from unnest(${sql.join(arrays.map((values, i) => sql`${values}::${sql.raw(types[i]!)}[]`))})
    )`);
    counts[table] += rows.length;
  }
  if (inserts.length > 0) await sql`with ${sql.join(inserts)} select 1`.execute(db);
  return counts;
}

/** Writes every batch of a generated history; returns the rows written per table. */
export async function insertHistory(
  db: Database,
  batches: Iterable<HistoryBatch>,
  onBatch?: (counts: HistoryCounts) => void,
): Promise<HistoryCounts> {
  const counts = zeroCounts();
  for (const batch of batches) {
    await insertHistoryBatch(db, batch, counts);
    onBatch?.(counts);
  }
  return counts;
}
