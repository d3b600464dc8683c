import type { ActiveWatch, SmsLanguage, StartOverwatchBody } from '@locus/contract';
import { ApiError } from '../../http/errors';
import { recordAudit } from '../audit/repo';
import type { Principal } from '../auth/guard';
import { requireLocatingAllowed } from '../location/access';
import { locateMany, visibleSession, type TrackingDeps } from '../location/service';
import { seedNewSession } from '../realtime/session-publisher';
import { insertSignedInDispatcherToken } from '../sessions/repo';
import { openSession } from '../sessions/service';
import { newToken } from '../sessions/tokens';
import { requireOverwatchTeam } from './access';
import { findActiveWatch, findGroupForWatch, findWatchKind, reachedNumbers } from './watch-repo';

export interface StartWatchInput {
  phoneNumbers: string[];
  groupId?: string;
  connectionRequestUuid?: string;
  language?: SmsLanguage;
}

const noSuchGroup = () => new ApiError(404, 'not-found', 'There is no such Overwatch group.');

/**
 * SPEC.md §7 `start-overwatch-stream` (issue 14): the first batch opens the watch (a tracking
 * session of kind `overwatch`, the dashboard's pipeline), later batches name it. Every number is
 * located as on the dashboard: the automatic lookup first, then a text (`locateMany`).
 */
export async function startOverwatchStream(
  deps: TrackingDeps,
  principal: Principal,
  input: StartWatchInput,
  ip?: string,
): Promise<StartOverwatchBody> {
  const profile = await requireLocatingAllowed(deps, principal);
  const group = input.groupId ? await findGroupForWatch(deps.db, input.groupId) : undefined;
  if (input.groupId && !group) throw noSuchGroup();
  if (group?.archived_at && !input.connectionRequestUuid)
    throw new ApiError(409, 'conflict', 'This Overwatch group is archived; restore it first.');
  // Another team's group is 404 like a group that does not exist.
  const team = await requireOverwatchTeam(deps.db, principal, group?.team_id).catch(
    (error: unknown) => {
      if (group && error instanceof ApiError && error.status === 404) throw noSuchGroup();
      throw error;
    },
  );
  const language = input.language ?? (group?.language as SmsLanguage | undefined) ?? 'en';

  let sessionId: string;
  let token: string | null = null;
  if (input.connectionRequestUuid) {
    const watch = await findWatchKind(deps.db, input.connectionRequestUuid);
    if (watch?.kind !== 'overwatch')
      throw new ApiError(404, 'not-found', 'There is no such watch.');
    sessionId = input.connectionRequestUuid;
  } else {
    // One watch at a time per admin: a second start (a stale screen, a second tab) would text
    // the whole group again. The running watch is reopened instead (`active-watch`).
    const running = await findActiveWatch(deps.db, principal.userId);
    if (running)
      throw new ApiError(
        409,
        'conflict',
        'You already have a running watch; it has been reopened. End it before starting another.',
      );
    const opened = await openSession(deps.db, {
      teamId: team.id,
      createdBy: principal.userId,
      authSessionId: principal.sessionId,
      callers: [],
      dispatcherTokenTtlSeconds: deps.config.DISPATCHER_TOKEN_TTL_SECONDS,
      withCallerTokens: false,
      overwatch: { groupId: group?.id ?? null },
    });
    sessionId = opened.sessionId;
    token = opened.dispatcherToken;
    seedNewSession(deps.realtime, sessionId);
    await recordAudit(deps.db, {
      actorUserId: principal.userId,
      action: 'overwatch.started',
      subject: group?.id ?? sessionId,
      detail: { sessionId, numbers: input.phoneNumbers.length },
      teamId: team.id,
      ip: ip ?? null,
    });
  }
  // Only a watch this user runs (or one of their team's, as a team admin), and still running.
  const session = await visibleSession(deps, principal, sessionId, { active: true });
  const skip = await reachedNumbers(deps.db, session.id);
  const located = await locateMany(
    deps,
    principal,
    session,
    profile,
    input.phoneNumbers,
    language,
    {
      skip,
      ip,
    },
  );
  return { uuid: session.id, token, ...located };
}

/** The running watch to reopen after a reload, with a fresh socket token for this sign-in. */
export async function activeWatch(
  deps: TrackingDeps,
  principal: Principal,
): Promise<ActiveWatch | null> {
  await requireOverwatchTeam(deps.db, principal);
  const watch = await findActiveWatch(deps.db, principal.userId);
  if (!watch) return null;
  const token = newToken();
  const issued = await insertSignedInDispatcherToken(deps.db, {
    hash: token.hash,
    sessionId: watch.id,
    userId: principal.userId,
    authSessionId: principal.sessionId,
    ttlSeconds: deps.config.DISPATCHER_TOKEN_TTL_SECONDS,
  });
  if (!issued) throw new ApiError(401, 'unauthorized', 'Sign in to continue.');
  return {
    uuid: watch.id,
    token: token.token,
    groupId: watch.overwatch_group_id,
    startedAt: watch.created_at.toISOString(),
    callers: watch.callers.map((caller) => ({ id: caller.id, phoneNumber: caller.phone_number })),
  };
}
