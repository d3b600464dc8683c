import { createHash } from 'node:crypto';
import type { WebhookEvent } from '@locus/contract';
import type { Database } from '@locus/db';
import { toPartnerFix } from '../partner/fix-shape';
import type { EventRow, FixRow, TouchedSession } from '../realtime/repo';

/**
 * One fact to announce to a team's webhook endpoints. `key` names the fact once (a session and
 * its event, a fix's `seq`): the delivery's id is derived from it, so that writing the same
 * fact twice (a batch retried after a lost commit answer) delivers it once.
 */
export interface WebhookFact {
  teamId: string;
  event: WebhookEvent;
  key: string;
  data: Record<string, unknown>;
  at: Date;
}

/** `msg_` and 32 hex digits: the Standard Webhooks `webhook-id`, stable for a fact and endpoint. */
function deliveryId(webhookId: string, fact: WebhookFact): string {
  const digest = createHash('sha256').update(`${webhookId}\n${fact.event}\n${fact.key}`).digest();
  return `msg_${digest.subarray(0, 16).toString('hex')}`;
}

/**
 * Writes a delivery for every enabled endpoint of each fact's team that chose its event, in the
 * caller's transaction: the delivery exists exactly when the fact does. The worker sends it.
 * Teams without endpoints (nearly all) cost one indexed query.
 */
export async function recordWebhookFacts(db: Database, facts: WebhookFact[]): Promise<void> {
  if (facts.length === 0) return;
  const teamIds = [...new Set(facts.map((fact) => fact.teamId))];
  const endpoints = await db
    .selectFrom('partner_webhooks')
    .select(['id', 'team_id', 'events'])
    .where('team_id', 'in', teamIds)
    .where('enabled', '=', true)
    .execute();
  if (endpoints.length === 0) return;
  const rows = facts.flatMap((fact) =>
    endpoints
      .filter(
        (endpoint) => endpoint.team_id === fact.teamId && endpoint.events.includes(fact.event),
      )
      .map((endpoint) => ({
        id: deliveryId(endpoint.id, fact),
        webhook_id: endpoint.id,
        event: fact.event,
        // Standard Webhooks' recommended envelope.
        payload: JSON.stringify({
          type: fact.event,
          timestamp: fact.at.toISOString(),
          data: fact.data,
        }),
      })),
  );
  if (rows.length === 0) return;
  await db
    .insertInto('partner_webhook_deliveries')
    .values(rows)
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
}

/** The team (and partner reference) of each session a batch touched, if it has any endpoint. */
async function sessionsWithEndpoints(
  db: Database,
  sessionIds: string[],
): Promise<Map<string, { teamId: string; externalReference: string | null }>> {
  if (sessionIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('tracking_sessions as s')
    .select(['s.id', 's.team_id', 's.external_reference'])
    .where('s.id', 'in', sessionIds)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('partner_webhooks as w')
          .select('w.id')
          .whereRef('w.team_id', '=', 's.team_id')
          .where('w.enabled', '=', true),
      ),
    )
    .execute();
  return new Map(
    rows.flatMap((row) =>
      row.team_id
        ? [[row.id, { teamId: row.team_id, externalReference: row.external_reference }]]
        : [],
    ),
  );
}

/**
 * The batch writer's facts (in its transaction): `location.created` for each stored fix and
 * `caller.sharing_changed` for each sharing event, for the sessions whose teams have an endpoint
 * (`touched`, from the batch's own session update: no query when none has).
 */
export async function recordBatchFacts(
  db: Database,
  fixes: FixRow[],
  events: EventRow[],
  touched: ReadonlyMap<string, TouchedSession>,
): Promise<void> {
  const sessions = new Map<string, { teamId: string; externalReference: string | null }>();
  for (const [id, session] of touched)
    if (session.hasWebhooks && session.teamId)
      sessions.set(id, { teamId: session.teamId, externalReference: session.externalReference });
  if (sessions.size === 0) return;
  const sharing = events.filter((row) => row.event === 'is-sharing-location');
  const facts: WebhookFact[] = [];
  for (const fix of fixes) {
    const session = sessions.get(fix.sessionId);
    if (!session) continue;
    facts.push({
      teamId: session.teamId,
      event: 'location.created',
      key: `${fix.sessionId}:${fix.seq}`,
      at: fix.receivedAt,
      data: {
        sessionId: fix.sessionId,
        externalReference: session.externalReference,
        // The partner API's own shape of a fix: a webhook and a GET agree.
        fix: toPartnerFix({ ...fix, address: fix.address ?? null }),
      },
    });
  }
  for (const event of sharing) {
    const session = sessions.get(event.sessionId);
    if (!session) continue;
    const { sharing: isSharing } = JSON.parse(event.payload) as { sharing: boolean };
    facts.push({
      teamId: session.teamId,
      event: 'caller.sharing_changed',
      key: `${event.sessionId}:${event.seq}`,
      at: event.createdAt,
      data: {
        sessionId: event.sessionId,
        externalReference: session.externalReference,
        callerId: event.callerId,
        sharing: isSharing,
      },
    });
  }
  await recordWebhookFacts(db, facts);
}

/** A fact about one session, for its team's endpoints (none for a practice session's). */
export async function recordSessionFact(
  db: Database,
  sessionId: string,
  fact: Pick<WebhookFact, 'event' | 'key' | 'data'>,
): Promise<void> {
  const session = (await sessionsWithEndpoints(db, [sessionId])).get(sessionId);
  if (!session) return;
  await recordWebhookFacts(db, [
    {
      ...fact,
      teamId: session.teamId,
      at: new Date(),
      data: { sessionId, externalReference: session.externalReference, ...fact.data },
    },
  ]);
}
