import type { Broadcast, PostBroadcast } from '@locus/contract';
import type { Database } from '@locus/db';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import { ApiError } from '../../http/errors';
import { recordAudit } from '../audit/repo';
import type { Principal } from '../auth/guard';
import { broadcastsChannel } from './console-tickets';
import { currentBroadcasts, insertBroadcast, withdrawBroadcast } from './repo';

export interface BroadcastDeps {
  db: Database;
  redis: Redis;
  config: { REDIS_KEY_PREFIX: string };
  log: FastifyBaseLogger;
}

/**
 * Tells every instance that the current broadcasts changed; each reads them again and sends
 * them to its console sockets. Published after the commit, so every reader sees the change.
 *
 * Not awaited, and a failure is only logged: the broadcast is already stored, so answering an
 * error (or hanging while Redis is away: the client queues commands until it reconnects) would
 * make the operator post it again and show two banners. Nothing is lost meanwhile: each instance
 * re-reads the broadcasts when its subscription comes back, and every console is sent the
 * current list when its socket (re)connects (and reads /broadcasts/current when it loads).
 */
function announce(deps: BroadcastDeps, id: string): void {
  deps.redis
    .publish(broadcastsChannel(deps.config.REDIS_KEY_PREFIX), id)
    .catch((error: unknown) =>
      deps.log.error({ err: error, broadcastId: id }, 'could not announce a broadcast change'),
    );
}

/** Posts a broadcast (the caller is a platform admin) and pushes it to every console. */
export async function postBroadcast(
  deps: BroadcastDeps,
  principal: Principal,
  body: PostBroadcast,
  ip: string,
): Promise<Broadcast> {
  const id = await deps.db.transaction().execute(async (trx) => {
    const inserted = await insertBroadcast(trx, {
      level: body.level,
      text: body.text,
      endsAt: body.endsAt ? new Date(body.endsAt) : null,
      createdBy: principal.userId,
    });
    await recordAudit(trx, {
      actorUserId: principal.userId,
      action: 'broadcast.posted',
      subject: inserted,
      detail: { level: body.level, text: body.text, endsAt: body.endsAt ?? null },
      ip,
    });
    return inserted;
  });
  announce(deps, id);
  const posted = (await currentBroadcasts(deps.db)).find((broadcast) => broadcast.id === id);
  // Only an end time that passed in the last instant could hide it; answer what was stored.
  return (
    posted ?? {
      id,
      level: body.level,
      text: body.text,
      startsAt: new Date().toISOString(),
      endsAt: body.endsAt ?? null,
      postedBy: principal.fullName,
    }
  );
}

/** Withdraws a broadcast that is still showing; 404 when it is unknown, withdrawn or ended. */
export async function withdrawCurrentBroadcast(
  deps: BroadcastDeps,
  principal: Principal,
  id: string,
  ip: string,
): Promise<void> {
  const withdrawn = await deps.db.transaction().execute(async (trx) => {
    const row = await withdrawBroadcast(trx, id, principal.userId);
    if (row)
      await recordAudit(trx, {
        actorUserId: principal.userId,
        action: 'broadcast.withdrawn',
        subject: id,
        detail: { text: row.text },
        ip,
      });
    return row;
  });
  if (!withdrawn)
    throw new ApiError(
      404,
      'not-found',
      'No such broadcast is showing: it is unknown, already withdrawn or has ended.',
    );
  announce(deps, id);
}
