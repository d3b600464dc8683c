import {
  partnerLimits,
  type LinkStage,
  type PartnerFixPage,
  type PartnerSession,
} from '@locus/contract';
import type { Database } from '@locus/db';
import { ApiError } from '../../http/errors';
import { endTracking, type TrackingDeps } from '../location/service';
import { toPartnerFix } from './fix-shape';
import type { PartnerPrincipal } from './partner-auth';
import {
  findFixesAfter,
  settledSeq,
  findLatestFixPerCaller,
  findPartnerCallers,
  findTeamSession,
  type PartnerCallerRow,
  type PartnerFixRow,
  type TeamSessionRow,
} from './sessions-repo';

const iso = (date: Date | null) => (date ? date.toISOString() : null);

/** How far a caller's link got: the furthest step it reached. */
function linkStage(caller: PartnerCallerRow): LinkStage {
  if (caller.sharedAt) return 'shared';
  if (caller.deniedAt) return 'denied';
  if (caller.linkOpenedAt) return 'opened';
  if (caller.textDeliveredAt) return 'delivered';
  if (caller.lastTextStatus === 'failed' || caller.lastTextStatus === 'undelivered')
    return 'text-failed';
  if (caller.firstTextAt || caller.lastTextStatus) return 'texted';
  return 'not-texted';
}

/** A session of the key's team, or 404 as if there were none. */
export async function teamSession(
  db: Database,
  partner: PartnerPrincipal,
  sessionId: string,
): Promise<TeamSessionRow> {
  const session = await findTeamSession(db, sessionId, partner.teamId);
  if (!session) throw new ApiError(404, 'not-found', 'There is no such session on your team.');
  return session;
}

/** The session as the partner API shows it: status, callers, their links and latest fixes. */
export async function partnerSessionView(
  db: Database,
  session: TeamSessionRow,
): Promise<PartnerSession> {
  const [callers, latest] = await Promise.all([
    findPartnerCallers(db, session.id),
    findLatestFixPerCaller(db, session.id),
  ]);
  const newest = latest.reduce<PartnerFixRow | null>(
    (best, fix) => (best === null || fix.capturedAt > best.capturedAt ? fix : best),
    null,
  );
  return {
    id: session.id,
    status: session.status === 'active' ? 'active' : 'ended',
    startedBy: session.startedBy,
    externalReference: session.externalReference,
    startedAt: session.createdAt.toISOString(),
    endedAt: iso(session.endedAt),
    callers: callers.map((caller) => {
      const fix = latest.find((candidate) => candidate.callerId === caller.id);
      return {
        id: caller.id,
        phoneNumber: caller.phoneNumber,
        language: caller.language,
        link: {
          stage: linkStage(caller),
          textedAt: iso(caller.firstTextAt),
          deliveredAt: iso(caller.textDeliveredAt),
          openedAt: iso(caller.linkOpenedAt),
          sharedAt: iso(caller.sharedAt),
          deniedAt: iso(caller.deniedAt),
        },
        latestFix: fix ? toPartnerFix(fix) : null,
      };
    }),
    latestFix: newest ? toPartnerFix(newest) : null,
  };
}

/** How far ahead the settled point is looked for (a page is at most 500 fixes). */
const settleProbe = 2_000;
/** A gap this old is a seq lost with an instance, not one still on its way. */
const lostSeqAfterSeconds = 120;

/** The fixes list's cursor: the last `seq` read, opaque to partners. */
const encodeCursor = (seq: number) => Buffer.from(`s${seq}`).toString('base64url');

function decodeCursor(cursor: string | undefined): number {
  if (cursor === undefined) return 0;
  const match = /^s(\d{1,10})$/.exec(Buffer.from(cursor, 'base64url').toString());
  // `seq` is a Postgres integer: a larger one was never given out.
  if (!match || Number(match[1]) > 2 ** 31 - 1)
    throw new ApiError(400, 'validation-failed', 'The query string is not valid.', [
      { path: 'cursor', message: 'Not a cursor this API gave out' },
    ]);
  return Number(match[1]);
}

export async function partnerFixPage(
  db: Database,
  partner: PartnerPrincipal,
  sessionId: string,
  page: { cursor?: string | undefined; limit?: number | undefined },
): Promise<PartnerFixPage> {
  const after = decodeCursor(page.cursor);
  const session = await teamSession(db, partner, sessionId);
  const limit = page.limit ?? partnerLimits.fixesPageDefault;
  // Only as far as every seq is stored: a fix still in another instance's batch writer would
  // otherwise be behind the cursor when it lands.
  const { settled, probeFull } = await settledSeq(
    db,
    session.id,
    after,
    settleProbe,
    lostSeqAfterSeconds,
  );
  // One more than asked says whether there are more, without a count.
  const rows = await findFixesAfter(db, session.id, after, settled, limit + 1);
  const fixes = rows.slice(0, limit);
  const fullPage = rows.length > limit;
  // A full page stops at its last fix; otherwise the cursor moves over the settled events too.
  const last = fullPage ? fixes.at(-1)!.seq : settled;
  // Beyond the probe there may be more: the partner pages on rather than wait for a poll.
  const hasMore = fullPage || probeFull;
  return { fixes: fixes.map(toPartnerFix), nextCursor: encodeCursor(last), hasMore };
}

/** Ends a session of the key's team, as its dispatcher would; again changes nothing. */
export async function endPartnerSession(
  deps: TrackingDeps,
  partner: PartnerPrincipal,
  sessionId: string,
  ip: string,
): Promise<PartnerSession> {
  const session = await teamSession(deps.db, partner, sessionId);
  await endTracking(deps, session, { userId: null, ip, partnerKeyId: partner.keyId });
  return partnerSessionView(deps.db, await teamSession(deps.db, partner, sessionId));
}
