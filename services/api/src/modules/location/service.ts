import {
  callerTexts,
  maxNumbersPerRequest,
  normalisePhoneInput,
  PhoneNumber,
  type TextedCaller,
  type UntextableNumber,
  type ActiveSession,
  type CallerLink,
  type ConnectionRequest,
  type Location,
  type SmsLanguage,
} from '@locus/contract';
import type { Database } from '@locus/db';
import { publicUrl } from '../../config';
import { ApiError } from '../../http/errors';
import type { AppDeps } from '../../platform/deps';
import { recordAudit } from '../audit/repo';
import type { Principal } from '../auth/guard';
import { listTeams } from '../call-lists/repo';
import { deployNumbers } from '../call-lists/service';
import type { RealtimeContext } from '../realtime/context';
import type { RealtimeHub } from '../realtime/hub';
import {
  publishServerFix,
  publishSessionEvent,
  seedNewSession,
} from '../realtime/session-publisher';
import { requireLocatingAllowed, type LocatingProfile } from './access';
import { advanceSession, mayRejoin } from './lifecycle';
import { untextableMessage, untextableReason } from '../sms/number-type';
import { SmsRateLimiter } from '../sms/rate-limit';
import { announceChatOpenedToNewCallers } from '../chat/service';
import { reportSmsOutcomes } from '../sms/outcome-reporter';
import { insertSignedInDispatcherToken } from '../sessions/repo';
import { openSession } from '../sessions/service';
import { failPracticeLookup, refuseInPractice, textPracticeCaller } from '../practice/service';
import type { PracticeCallers } from '../practice/simulator';
import { hashToken, looksLikeToken, newToken } from '../sessions/tokens';
import {
  endSession,
  findCallerLinkState,
  findCallers,
  findEndedAt,
  hasPendingExport,
  recordExpectedSeq,
  findFirstCaller,
  findLatestFix,
  findLookup,
  findRejoinableSession,
  findSmsStatus,
  findTeam,
  findVisibleSession,
  insertCallerSms,
  insertLinkAndSms,
  insertLookup,
  isOptedOut,
  markLookupTimedOut,
  addCallers,
  type CallerRow,
  type SessionRow,
  type TeamRow,
} from './repo';

/** The session's team (not the requester's): its lookup access and its name in the text. */
async function sessionTeam(deps: TrackingDeps, session: SessionRow): Promise<TeamRow | null> {
  return session.teamId ? ((await findTeam(deps.db, session.teamId)) ?? null) : null;
}

export interface TrackingDeps extends AppDeps {
  realtime: RealtimeContext;
  hub: RealtimeHub;
  /** Practice mode's scripted callers (issue 14), on the tracking routes. */
  practice?: PracticeCallers;
}

/**
 * Who asked, for the audit trail (issue 11): one row per locate request, text and end, never per
 * fix. `ip` is the request's client address.
 */
export interface Requester {
  /** Null for a partner's system (issue 15), which acts with `partnerKeyId`. */
  userId: string | null;
  ip: string | null;
  partnerKeyId?: string;
}

/** The key a partner's request came with, beside the rest of an audit row's detail. */
const byKey = (by: Requester): Record<string, string> =>
  by.partnerKeyId ? { partnerKeyId: by.partnerKeyId } : {};

const requester = (principal: Principal, ip: string | undefined): Requester => ({
  userId: principal.userId,
  ip: ip ?? null,
});

/** What a many-number request answers. */
type ManySent = { callers: TextedCaller[]; invalid: string[]; untextable: UntextableNumber[] };

/** SPEC.md §9: a session can be rejoined while its caller is connected or for 60 s after. */
export const rejoinWithinSeconds = 60;

/**
 * Refuses a number that cannot receive texts (premium-rate, toll-free, a landline…) with 422
 * `untextable-number`, before anything is written or sent.
 */
function requireTextable(phoneNumber: string): void {
  const reason = untextableReason(phoneNumber);
  if (reason) throw new ApiError(422, 'untextable-number', untextableMessage(phoneNumber, reason));
}

/**
 * Takes `count` texts from the dispatcher's and the session team's allowance (429
 * `rate-limited` with Retry-After when either is spent, and nothing is sent).
 */
async function reserveTexts(
  deps: TrackingDeps,
  principal: Principal,
  session: SessionRow,
  profile: LocatingProfile,
  count: number,
): Promise<TextReservation> {
  return reserveTextsFor(
    deps,
    { sender: principal.userId, teamId: session.teamId ?? profile.team.id },
    count,
  );
}

export interface TextReservation {
  release: (unsent: number) => Promise<void>;
}

/**
 * Takes `count` texts from a sender's allowance (a dispatcher's, or a partner key's: `sender`
 * is then `key:<id>`) and from its team's; 429 `rate-limited` with Retry-After when either is
 * spent, and nothing is sent.
 */
export async function reserveTextsFor(
  deps: AppDeps,
  { sender, teamId }: { sender: string; teamId: string },
  count: number,
): Promise<TextReservation> {
  const limiter = new SmsRateLimiter(deps.redis, deps.config.REDIS_KEY_PREFIX, {
    perUser: deps.config.SMS_RATE_LIMIT_PER_USER,
    perTeam: deps.config.SMS_RATE_LIMIT_PER_TEAM,
    windowSeconds: deps.config.SMS_RATE_LIMIT_WINDOW_SECONDS,
  });
  const who = { userId: sender, teamId };
  await limiter.reserve(who, count);
  // Texts never sent (an opted-out number, a request that failed) go back to the allowance.
  return { release: (unsent) => limiter.release(who, Math.min(unsent, count)) };
}

/** The session as its dispatcher (or a team admin) sees it; 404 for everyone else. */
export async function visibleSession(
  deps: TrackingDeps,
  principal: Principal,
  sessionId: string,
  { active }: { active: boolean },
): Promise<SessionRow> {
  const session = await findVisibleSession(deps.db, sessionId, principal.userId);
  if (!session) throw new ApiError(404, 'not-found', 'There is no such tracking session.');
  if (active && session.status !== 'active')
    throw new ApiError(409, 'conflict', 'This tracking session has ended.');
  return session;
}

export async function startStream(
  deps: TrackingDeps,
  principal: Principal,
  phoneNumber: string,
  ip?: string,
  practice = false,
): Promise<ConnectionRequest> {
  const profile = await requireLocatingAllowed(deps, principal);
  const opened = await openSession(deps.db, {
    // Practice mode (issue 14): no team, so nothing team-scoped (metrics above all) sees it.
    teamId: practice ? null : profile.team.id,
    createdBy: principal.userId,
    authSessionId: principal.sessionId,
    callers: [{ phoneNumber }],
    dispatcherTokenTtlSeconds: deps.config.DISPATCHER_TOKEN_TTL_SECONDS,
    withCallerTokens: false,
    ...(practice
      ? // A rehearsal locates nobody: nothing for the audit trail.
        { practice }
      : {
          // In the transaction that opens the session: one commit (a WAL flush) fewer on the path
          // of every call a console takes, and never a session without its audit row.
          inTransaction: (trx: Database, sessionId: string) =>
            recordAudit(trx, {
              actorUserId: principal.userId,
              action: 'locate.requested',
              subject: phoneNumber,
              detail: { sessionId },
              teamId: profile.team.id,
              ip: ip ?? null,
            }),
        }),
  });
  seedNewSession(deps.realtime, opened.sessionId);
  return { uuid: opened.sessionId, token: opened.dispatcherToken, id: opened.callerIds[0]! };
}

const lookupFailures = {
  'lookup-unavailable-invalid-keys': {
    status: 502,
    message: "The location provider refused this agency's keys.",
  },
  'rapid-sos-unavailable': { status: 502, message: 'The location provider is not available.' },
  'lookup-timeout': { status: 504, message: 'The location provider did not answer in time.' },
  'lookup-no-location': {
    status: 422,
    message: 'The location provider has no location for this phone.',
  },
} as const;
type LookupFailure = keyof typeof lookupFailures;

/**
 * SPEC.md §4 step 5: asks the emergency-data provider (through the `location.lookup` job) and
 * publishes what it found to the session like any other fix. Every failure is stored as the
 * request's error (§8) and answered with its code, so that the console offers a text message.
 */
export async function requestLocation(
  deps: TrackingDeps,
  principal: Principal,
  sessionId: string,
  ip?: string,
): Promise<{ uuid: string }> {
  const session = await visibleSession(deps, principal, sessionId, { active: true });
  await requireLocatingAllowed(deps, principal);
  // The session-lifecycle machine: looking up, unless it ended meanwhile.
  await advanceOrEnded(deps, session.id, { type: 'LOOKUP_STARTED', at: Date.now() });
  if (session.practice) return failPracticeLookup(deps, session.id);
  const team = await sessionTeam(deps, session);
  const fail = async (
    code: LookupFailure | 'lookup-unavailable-no-team' | 'lookup-unavailable-not-active',
    status: number,
    message: string,
  ): Promise<never> => {
    await advanceSession(deps.db, session.id, { type: 'LOOKUP_FAILED', code, at: Date.now() });
    throw new ApiError(status, code, message);
  };
  if (!team)
    return fail(
      'lookup-unavailable-no-team',
      409,
      'Automatic location needs a team; you are not on one.',
    );
  if (!team.isActive || !team.lookupActive)
    return fail(
      'lookup-unavailable-not-active',
      409,
      'Automatic location is not active for your team.',
    );
  const caller = await findFirstCaller(deps.db, session.id);
  if (!caller) throw new ApiError(404, 'not-found', 'There is no such tracking session.');
  const outcome = await lookUpCaller(deps, session, caller, requester(principal, ip));
  if (outcome.found) {
    await advanceSession(deps.db, session.id, { type: 'LOOKUP_FOUND', at: Date.now() });
    return { uuid: outcome.lookupId };
  }
  const code = outcome.code;
  return fail(code, lookupFailures[code].status, lookupFailures[code].message);
}

/**
 * One automatic lookup (SPEC.md §4 step 5) for one caller of a session: asks the provider through
 * the `location.lookup` job, waits at most LOOKUP_WAIT_MS, and publishes a found position to the
 * session like any other fix. The dashboard's request-location and an Overwatch watch both use it.
 */
export async function lookUpCaller(
  deps: TrackingDeps,
  session: Pick<SessionRow, 'id' | 'teamId'>,
  caller: Pick<CallerRow, 'id' | 'phoneNumber'>,
  by: Requester,
): Promise<{ found: true; lookupId: string } | { found: false; code: LookupFailure }> {
  const lookupId = await insertLookup(deps.db, session.id, caller.id);
  // Asking the provider where a phone is: on the team's trail, as the locate that opened it.
  await recordAudit(deps.db, {
    actorUserId: by.userId,
    action: 'locate.requested',
    subject: caller.phoneNumber,
    detail: { sessionId: session.id, kind: 'provider-lookup', lookupId, ...byKey(by) },
    teamId: session.teamId,
    ip: by.ip,
  });
  const outcome = await deps.queues.enqueueAndWait(
    'locationLookup',
    { lookupId },
    lookupId,
    deps.config.LOOKUP_WAIT_MS,
  );
  if (outcome === 'timeout') await markLookupTimedOut(deps.db, lookupId);
  const lookup = await findLookup(deps.db, lookupId);
  if (lookup?.status === 'found' && lookup.latitude !== null && lookup.longitude !== null) {
    const location: Location = {
      latitude: lookup.latitude,
      longitude: lookup.longitude,
      uncertaintyRadiusInMeters: lookup.uncertaintyRadiusM ?? 0,
      altitude: lookup.altitude,
      address: lookup.address,
      capturedFromSource: 'RAPID_SOS',
      dateTimeCaptured: (lookup.capturedAt ?? new Date()).toISOString(),
    };
    await publishServerFix(deps.realtime, { sessionId: session.id, callerId: caller.id }, location);
    return { found: true, lookupId };
  }
  const code: LookupFailure =
    lookup?.status === 'not-found'
      ? 'lookup-no-location'
      : lookup?.status === 'timed-out'
        ? 'lookup-timeout'
        : lookup?.error === 'lookup-unavailable-invalid-keys' || lookup?.error === 'lookup-timeout'
          ? lookup.error
          : 'rapid-sos-unavailable';
  return { found: false, code };
}

/** The provider's lookup as one step of a locate, told to the session-lifecycle machine. */
async function lookUpFirst(
  deps: TrackingDeps,
  session: Pick<SessionRow, 'id' | 'teamId'>,
  caller: CallerRow,
  by: Requester,
): Promise<boolean> {
  await advanceOrEnded(deps, session.id, { type: 'LOOKUP_STARTED', at: Date.now() });
  const outcome = await lookUpCaller(deps, session, caller, by);
  await advanceSession(
    deps.db,
    session.id,
    outcome.found
      ? { type: 'LOOKUP_FOUND', at: Date.now() }
      : { type: 'LOOKUP_FAILED', code: outcome.code, at: Date.now() },
  );
  return outcome.found;
}

/** What became of a locate: the provider found the phone, or its text's fate. */
export type LocateOutcome = 'located' | 'untextable' | TextedCaller['status'];

/**
 * A whole locate of one caller, as a dispatcher would run it by hand (SPEC.md §4 steps 5 to 8):
 * the provider first when the team has it, then, if it found nothing, a text with a sharing link
 * in `language`. The session-lifecycle machine hears each step. The partner API (issue 15) runs
 * it for a partner's system; the text's allowance was reserved by the caller of this function,
 * and is given back here when no text goes out.
 */
export async function lookUpThenText(
  deps: TrackingDeps,
  session: Pick<SessionRow, 'id' | 'teamId'>,
  team: TeamRow,
  caller: CallerRow,
  language: SmsLanguage,
  by: Requester,
  reservation: TextReservation,
): Promise<LocateOutcome> {
  if (team.isActive && team.lookupActive) {
    const found = await lookUpFirst(deps, session, caller, by).catch(async (error: unknown) => {
      // Ended meanwhile, or the lookup could not be asked: no text goes out.
      await reservation.release(1);
      throw error;
    });
    if (found) {
      await reservation.release(1);
      return 'located';
    }
  }
  // Found by nobody and unable to receive a text.
  if (untextableReason(caller.phoneNumber)) {
    await reservation.release(1);
    return 'untextable';
  }
  try {
    const texted = await textCaller(deps, session, team, caller, language, by);
    if (texted.status === 'opted-out') await reservation.release(1);
    return texted.status;
  } catch (error) {
    await reservation.release(1);
    throw error;
  }
}

/**
 * SPEC.md §4 step 8: a new link for the caller (the previous one stops working) and the text
 * that carries it, in the caller's language; then the `sms.send` job. Waits a little for the
 * provider's answer so that a refusal reaches the dispatcher as "Unable to send SMS request".
 */
export async function requestTextMessage(
  deps: TrackingDeps,
  principal: Principal,
  sessionId: string,
  language: SmsLanguage,
  ip?: string,
): Promise<{ token: string }> {
  const session = await visibleSession(deps, principal, sessionId, { active: true });
  const profile = await requireLocatingAllowed(deps, principal);
  if (session.practice) return textPracticeCaller(deps, session);
  const team = await sessionTeam(deps, session);
  const caller = await findFirstCaller(deps.db, session.id);
  if (!caller) throw new ApiError(404, 'not-found', 'There is no such tracking session.');
  requireTextable(caller.phoneNumber);
  const reservation = await reserveTexts(deps, principal, session, profile, 1);
  const by = requester(principal, ip);
  const texted = await textCaller(deps, session, team, caller, language, by).catch(
    async (error: unknown) => {
      await reservation.release(1);
      throw error;
    },
  );
  if (texted.status === 'opted-out') {
    await reservation.release(1);
    throw new ApiError(
      409,
      'sms-opted-out',
      'This number replied STOP: Locus cannot text it until it replies START.',
    );
  }
  if (texted.status === 'failed')
    throw new ApiError(502, 'sms-failed', 'The text message could not be sent to this number.');
  return { token: texted.smsId! };
}

type TextOutcome = { status: TextedCaller['status']; smsId: string | null };

/**
 * One caller's link and text: a new link (the previous one stops working), the text in the
 * caller's language, `sms.send`, and a short wait for the provider's answer so that a refusal
 * reaches the dispatcher. A number that texted STOP is not texted.
 */
export async function textCaller(
  deps: TrackingDeps,
  session: Pick<SessionRow, 'id' | 'teamId'>,
  team: TeamRow | null,
  caller: CallerRow,
  language: SmsLanguage,
  by: Requester,
): Promise<TextOutcome> {
  const target = { sessionId: session.id, callerId: caller.id };
  if (await isOptedOut(deps.db, caller.phoneNumber)) {
    const optedOut = { type: 'TEXT_FAILED', code: 'sms-opted-out', at: Date.now() } as const;
    await advanceSession(deps.db, session.id, optedOut);
    return { status: 'opted-out', smsId: null };
  }
  const link = newToken();
  const url = `${publicUrl(deps.config)}/share?token=${link.token}`;
  const body = callerTexts[language].sms({
    agencyName: team?.name ?? 'Emergency services',
    link: url,
  });
  const smsId = await insertLinkAndSms(deps.db, {
    sessionId: session.id,
    caller,
    language,
    tokenHash: link.hash,
    openWithinSeconds: deps.config.CALLER_LINK_OPEN_WITHIN_SECONDS,
    hardCapSeconds: deps.config.CALLER_TOKEN_TTL_SECONDS,
    body,
  });
  if (!smsId) throw new ApiError(409, 'conflict', 'This tracking session has ended.');
  // Writing the text told the session-lifecycle machine (TEXT_QUEUED, in the same transaction).
  await auditText(deps, session, caller, by, { smsId, kind: 'location-link', language });
  return sendText(deps, target, smsId);
}

/** One `sms.sent` row per text written and queued for sending (the outcome is the session's). */
async function auditText(
  deps: TrackingDeps,
  session: Pick<SessionRow, 'id' | 'teamId'>,
  caller: CallerRow,
  by: Requester,
  detail: { smsId: string; kind: 'location-link' | 'ask-location-by-text'; language: SmsLanguage },
): Promise<void> {
  await recordAudit(deps.db, {
    actorUserId: by.userId,
    action: 'sms.sent',
    subject: caller.phoneNumber,
    detail: { sessionId: session.id, ...detail, ...byKey(by) },
    teamId: session.teamId,
    ip: by.ip,
  });
}

/**
 * `sms.send` for a written text, and a short wait for the provider's answer so that a refusal
 * reaches the dispatcher at once. An answer after the wait is told to the session by whichever
 * instance finds it first (sms/outcome-reporter.ts), even if this one is gone by then.
 */
async function sendText(
  deps: TrackingDeps,
  target: { sessionId: string; callerId: string },
  smsId: string,
): Promise<TextOutcome> {
  const outcome = await deps.queues.enqueueAndWait(
    'smsSend',
    { smsId },
    smsId,
    deps.config.SMS_WAIT_MS,
  );
  if (outcome === 'timeout') {
    await textOut(deps, target.sessionId);
    return { status: 'queued', smsId };
  }
  await reportSmsOutcomes(deps, smsId);
  const status = textStatus(await findSmsStatus(deps.db, smsId));
  if (status !== 'failed' && status !== 'opted-out') await textOut(deps, target.sessionId);
  return { status: status === 'delivered' ? 'sent' : status, smsId };
}

/**
 * The text is out of our hands (sent, or the provider still retrying): the session waits for
 * the caller. The machine refuses it for a text that carries no link (nothing was queued) or
 * once the session has ended; either way nothing changes.
 */
async function textOut(deps: TrackingDeps, sessionId: string): Promise<void> {
  await advanceSession(deps.db, sessionId, { type: 'TEXT_SENT', at: Date.now() });
}

/**
 * Runs an event that starts something on the session; a refusal means that the session has
 * ended since it was read (409, as for a session read as ended).
 */
async function advanceOrEnded(
  deps: TrackingDeps,
  sessionId: string,
  event: Parameters<typeof advanceSession>[2],
): Promise<void> {
  const step = await advanceSession(deps.db, sessionId, event);
  if (!step?.taken) throw new ApiError(409, 'conflict', 'This tracking session has ended.');
}

/**
 * "Ask for location by text": when the caller's page cannot get positions through, the caller is
 * texted, in their language, how to reply with one (a pin shared from their maps app, or a Plus
 * Code); `sms/service.ts` reads the reply. The session log shows it was asked.
 */
export async function askLocationByText(
  deps: TrackingDeps,
  principal: Principal,
  sessionId: string,
  callerId: string | undefined,
  ip?: string,
): Promise<{ token: string }> {
  const session = await visibleSession(deps, principal, sessionId, { active: true });
  refuseInPractice(session);
  const profile = await requireLocatingAllowed(deps, principal);
  const caller = callerId
    ? (await findCallers(deps.db, session.id)).find((row) => row.id === callerId)
    : await findFirstCaller(deps.db, session.id);
  if (!caller) throw new ApiError(404, 'not-found', 'There is no such caller in this session.');
  requireTextable(caller.phoneNumber);
  if (await isOptedOut(deps.db, caller.phoneNumber))
    throw new ApiError(
      409,
      'sms-opted-out',
      'This number replied STOP: Locus cannot text it until it replies START.',
    );
  const reservation = await reserveTexts(deps, principal, session, profile, 1);
  const smsId = await insertCallerSms(deps.db, {
    sessionId: session.id,
    caller,
    body: callerTexts[caller.language].smsAskLocation,
  });
  if (!smsId) {
    await reservation.release(1);
    throw new ApiError(409, 'conflict', 'This tracking session has ended.');
  }
  await auditText(deps, session, caller, requester(principal, ip), {
    smsId,
    kind: 'ask-location-by-text',
    language: caller.language,
  });
  const target = { sessionId: session.id, callerId: caller.id };
  await publishSessionEvent(deps.realtime, target, 'text-location-requested', {});
  const sent = await sendText(deps, target, smsId);
  if (sent.status === 'opted-out') {
    await reservation.release(1);
    throw new ApiError(
      409,
      'sms-opted-out',
      'This number replied STOP: Locus cannot text it until it replies START.',
    );
  }
  if (sent.status === 'failed')
    throw new ApiError(502, 'sms-failed', 'The text message could not be sent to this number.');
  return { token: smsId };
}

/**
 * SPEC.md §4 multi-number flows: adds numbers to a running session (or texts its callers again)
 * and texts each one its own link, in `language`. Invalid numbers are answered as such and not
 * texted; duplicates are merged; at most `maxNumbersPerRequest` numbers per request.
 */
export async function requestAdditionalLocations(
  deps: TrackingDeps,
  principal: Principal,
  sessionId: string,
  newNumbers: string[],
  language: SmsLanguage,
  ip?: string,
): Promise<ManySent> {
  const session = await visibleSession(deps, principal, sessionId, { active: true });
  refuseInPractice(session);
  const profile = await requireLocatingAllowed(deps, principal);
  const { valid, invalid } = sortNumbers(newNumbers);
  const { textable, untextable } = sortTextable(valid);
  const reservation = await reserveTexts(deps, principal, session, profile, textable.length);
  const callers = await textNumbers(deps, session, textable, language, requester(principal, ip));
  await reservation.release(callers.filter((caller) => caller.status === 'opted-out').length);
  return { callers, invalid, untextable };
}

/** The numbers of the session team's call lists, texted like typed numbers. */
export async function requestMultipleLocations(
  deps: TrackingDeps,
  principal: Principal,
  sessionId: string,
  callListIds: string[],
  language: SmsLanguage,
  ip?: string,
): Promise<ManySent> {
  const session = await visibleSession(deps, principal, sessionId, { active: true });
  refuseInPractice(session);
  const profile = await requireLocatingAllowed(deps, principal);
  const ids = [...new Set(callListIds)];
  // Only the session team's lists; deployNumbers also checks that the user may read them.
  const lists = await listTeams(deps.db, ids);
  if (lists.length !== ids.length || lists.some((list) => list.team_id !== session.teamId))
    throw new ApiError(404, 'not-found', 'There is no such call list on your team.');
  const entries = await deployNumbers(deps.db, principal, ids);
  const { valid, invalid } = sortNumbers(entries.map((entry) => entry.phoneNumber));
  if (valid.length > maxNumbersPerRequest)
    throw new ApiError(
      400,
      'validation-failed',
      `These lists hold ${valid.length} numbers; at most ${maxNumbersPerRequest} can be texted at once.`,
    );
  const { textable, untextable } = sortTextable(valid);
  const reservation = await reserveTexts(deps, principal, session, profile, textable.length);
  const callers = await textNumbers(deps, session, textable, language, requester(principal, ip));
  await reservation.release(callers.filter((caller) => caller.status === 'opted-out').length);
  return { callers, invalid, untextable };
}

/** What became of one number of a watch: the automatic lookup found it, or it was texted. */
export type LocatedOrTexted = Omit<TextedCaller, 'status'> & {
  status: TextedCaller['status'] | 'located';
};

/**
 * Overwatch (issue 14): adds the numbers to a running watch and locates each, the automatic lookup
 * first when the session's team has it (in parallel; the worker paces the provider), then a text
 * for every number the lookup did not find, as the dashboard does for one number. A number that
 * cannot receive texts may still be found by the lookup; it is reported untextable only if not.
 * Numbers already in the session are left alone (`skip`): a batch sent twice texts nobody twice.
 */
export async function locateMany(
  deps: TrackingDeps,
  principal: Principal,
  session: SessionRow,
  profile: LocatingProfile,
  numbers: string[],
  language: SmsLanguage,
  options: { skip: ReadonlySet<string>; ip?: string },
): Promise<{ callers: LocatedOrTexted[]; invalid: string[]; untextable: UntextableNumber[] }> {
  const { valid, invalid } = sortNumbers(numbers);
  const fresh = valid.filter((phoneNumber) => !options.skip.has(phoneNumber));
  const by = requester(principal, options.ip);
  const team = await sessionTeam(deps, session);
  // The allowance is taken before anything is written: a batch refused (429) leaves no caller
  // behind that a retry would skip as already in the watch, untexted. What the lookup finds, and
  // opted-out numbers, are given back.
  const { textable, untextable } = sortTextable(fresh);
  const reservation = await reserveTexts(deps, principal, session, profile, textable.length);
  let reached: Awaited<ReturnType<typeof reachEach>>;
  try {
    reached = await reachEach(deps, session, team, fresh, textable, language, by);
  } catch (error) {
    // Nothing says which texts went out before the failure: the allowance is given back whole
    // (erring towards the next attempt), and those not reached are sent again by a retry.
    await reservation.release(textable.length);
    throw error;
  }
  const { callers, located, texted } = reached;
  await reservation.release(
    textable.length -
      texted.length +
      texted.filter((caller) => caller.status === 'opted-out').length,
  );
  const answered: LocatedOrTexted[] = [
    ...callers
      .filter((caller) => located.has(caller.id))
      .map((caller) => ({
        id: caller.id,
        phoneNumber: caller.phoneNumber,
        status: 'located' as const,
      })),
    ...texted,
  ];
  // An untextable number the lookup found is located, not untextable.
  const foundNumbers = new Set(answered.map((caller) => caller.phoneNumber));
  return {
    callers: answered,
    invalid,
    untextable: untextable.filter((entry) => !foundNumbers.has(entry.phoneNumber)),
  };
}

/** `locateMany`'s work once the allowance is held: add, look up, then text the rest. */
async function reachEach(
  deps: TrackingDeps,
  session: SessionRow,
  team: TeamRow | null,
  numbers: string[],
  textable: string[],
  language: SmsLanguage,
  by: Requester,
) {
  const callers = await addCallers(deps.db, session.id, numbers, language);
  const located = new Set<string>();
  if (team?.isActive && team.lookupActive) {
    await Promise.all(
      callers.map(async (caller) => {
        const outcome = await lookUpCaller(deps, session, caller, by);
        if (outcome.found) located.add(caller.id);
      }),
    );
  }
  const toText = callers.filter(
    (caller) => !located.has(caller.id) && textable.includes(caller.phoneNumber),
  );
  const texted = await Promise.all(
    toText.map(async (caller) => {
      const outcome = await textCaller(deps, session, team, caller, language, by);
      return { id: caller.id, phoneNumber: caller.phoneNumber, status: outcome.status };
    }),
  );
  return { callers, located, texted };
}

/** Keeps apart the numbers that cannot receive texts, with why (they are not texted). */
function sortTextable(numbers: string[]): {
  textable: string[];
  untextable: UntextableNumber[];
} {
  const textable: string[] = [];
  const untextable: UntextableNumber[] = [];
  for (const phoneNumber of numbers) {
    const reason = untextableReason(phoneNumber);
    if (reason) untextable.push({ phoneNumber, reason });
    else textable.push(phoneNumber);
  }
  return { textable, untextable };
}

/** Normalises typed numbers (+1 when there is no leading +), merges duplicates, keeps the invalid apart. */
function sortNumbers(numbers: string[]): { valid: string[]; invalid: string[] } {
  const valid = new Set<string>();
  const invalid = new Set<string>();
  for (const typed of numbers) {
    const parsed = PhoneNumber.safeParse(normalisePhoneInput(typed));
    if (parsed.success) valid.add(parsed.data);
    else if (typed.trim()) invalid.add(typed.trim());
  }
  return { valid: [...valid], invalid: [...invalid] };
}

async function textNumbers(
  deps: TrackingDeps,
  session: SessionRow,
  phoneNumbers: string[],
  language: SmsLanguage,
  by: Requester,
): Promise<TextedCaller[]> {
  const team = await sessionTeam(deps, session);
  const callers = await addCallers(deps.db, session.id, phoneNumbers, language);
  // A chat already open is open for the new callers too; a failure here does not stop the texts
  // (the dispatcher's next chat-initiated repairs it).
  await announceChatOpenedToNewCallers(deps.realtime, session.id).catch((error: unknown) =>
    deps.log.error({ err: error }, 'chat-opened not announced to the added callers'),
  );
  // In parallel: the worker's concurrency, not this request, paces the provider.
  return Promise.all(
    callers.map(async (caller) => {
      const texted = await textCaller(deps, session, team, caller, language, by);
      return { id: caller.id, phoneNumber: caller.phoneNumber, status: texted.status };
    }),
  );
}

/** What became of a text, as the dispatcher's request answers it. */
function textStatus(
  sms: { status: string; error: string | null } | undefined,
): 'sent' | 'delivered' | 'failed' | 'opted-out' | 'queued' {
  if (sms?.status === 'failed' || sms?.status === 'undelivered')
    return sms.error === 'opted-out' ? 'opted-out' : 'failed';
  if (sms?.status === 'sent' || sms?.status === 'delivered') return sms.status;
  return 'queued';
}

/**
 * End tracking (SPEC.md §4): the session ends, every token of it is revoked, the caller's page
 * is told, and a team that exports gets its file written by the `export.upload` job.
 * Ending twice answers the first end time.
 */
export async function completeSession(
  deps: TrackingDeps,
  principal: Principal,
  sessionId: string,
  ip?: string,
): Promise<{ endedAt: string }> {
  const session = await visibleSession(deps, principal, sessionId, { active: false });
  return endTracking(deps, session, requester(principal, ip));
}

/**
 * Ends a session its requester may end (a dispatcher's, or a partner key's of the same team):
 * links and sockets close, the team's export is queued, and the first end is audited.
 */
export async function endTracking(
  deps: TrackingDeps,
  session: Pick<SessionRow, 'id' | 'teamId'>,
  by: Requester,
): Promise<{ endedAt: string }> {
  // Ended first: its tokens are revoked, so no new socket can join and no text can be written.
  const ended = await endSession(deps.db, session.id);
  // Then every instance closes the session's sockets (again, harmlessly, for a repeated end:
  // it repairs an end whose announcement failed), and this instance writes what it holds.
  await deps.hub.endSession(session.id);
  await deps.realtime.writer.flush();
  // Once, by the end that ended it (a repeated end changes nothing worth a row).
  if (ended) await auditEnd(deps, by, session, ended.exportTeamId !== null);
  const exportPending = ended
    ? ended.exportTeamId !== null
    : await hasPendingExport(deps.db, session.id);
  if (exportPending) await queueExport(deps, session.id);
  const endedAt = ended?.endedAt ?? (await findEndedAt(deps.db, session.id)) ?? new Date();
  return { endedAt: endedAt.toISOString() };
}

/**
 * Queues the session's export (issue 15). It first records the session's last seq: the job
 * writes nothing until every seq up to it is in Postgres, whatever instance's batch writer holds
 * it. Redis may be away: the job then waits for Postgres's highest. The job id makes a repeated
 * end (or a retry from the sessions page) enqueue nothing twice while one is queued.
 */
export async function queueExport(
  deps: Pick<TrackingDeps, 'db' | 'queues' | 'realtime'>,
  sessionId: string,
  jobId = `export-${sessionId}`,
): Promise<void> {
  const lastSeq = await deps.realtime.sequencer.lastSeq(sessionId).catch(() => null);
  if (lastSeq !== null) await recordExpectedSeq(deps.db, sessionId, lastSeq);
  await deps.queues.enqueue('exportUpload', { sessionId }, jobId);
}

async function auditEnd(
  deps: TrackingDeps,
  by: Requester,
  session: Pick<SessionRow, 'id' | 'teamId'>,
  exported: boolean,
): Promise<void> {
  const row = { actorUserId: by.userId, teamId: session.teamId, ip: by.ip };
  const detail = { sessionId: session.id, ...byKey(by) };
  await recordAudit(deps.db, { ...row, action: 'session.ended', subject: session.id, detail });
  // The team's export setting sends the session's fixes to its storage (`export.upload`).
  if (exported)
    await recordAudit(deps.db, {
      ...row,
      action: 'session.exported',
      subject: session.id,
      detail: { ...detail, destination: 'team export storage' },
    });
}

export async function activeSession(
  deps: TrackingDeps,
  principal: Principal,
): Promise<ActiveSession | null> {
  // A rejoin hands out a fresh socket token: the caller's positions, so locating.
  await requireLocatingAllowed(deps, principal);
  const found = await findRejoinableSession(deps.db, principal.userId, rejoinWithinSeconds);
  // The session-lifecycle machine decides whether it may still be rejoined (not ended).
  if (!found || !(await mayRejoin(deps.db, found.id))) return null;
  const token = newToken();
  // This sign-in's token: its sign-out ends it, and none is issued once it was signed out.
  const issued = await insertSignedInDispatcherToken(deps.db, {
    hash: token.hash,
    sessionId: found.id,
    userId: principal.userId,
    authSessionId: principal.sessionId,
    ttlSeconds: deps.config.DISPATCHER_TOKEN_TTL_SECONDS,
  });
  if (!issued) throw new ApiError(401, 'unauthorized', 'Sign in to continue.');
  return {
    uuid: found.id,
    token: token.token,
    phoneNumber: found.caller.phoneNumber,
    locationType: found.locationType,
    language: found.caller.language,
    startedAt: found.createdAt.toISOString(),
    callers: (await findCallers(deps.db, found.id)).map(({ id, phoneNumber }) => ({
      id,
      phoneNumber,
    })),
    ...(found.practice ? { practice: true } : {}),
  };
}

export async function latestLocation(
  deps: TrackingDeps,
  principal: Principal,
  sessionId: string,
): Promise<Location | null> {
  await visibleSession(deps, principal, sessionId, { active: false });
  await requireLocatingAllowed(deps, principal);
  await deps.realtime.writer.flush();
  const fix = await findLatestFix(deps.db, sessionId);
  if (!fix) return null;
  return {
    latitude: fix.latitude,
    longitude: fix.longitude,
    uncertaintyRadiusInMeters: fix.uncertainty_radius_m,
    altitude: fix.altitude,
    address: fix.address,
    capturedFromSource: fix.source as Location['capturedFromSource'],
    dateTimeCaptured: fix.captured_at.toISOString(),
  };
}

/** The caller's page before consent. Reading it never opens or consumes the link. */
export async function callerLink(deps: TrackingDeps, token: string): Promise<CallerLink> {
  if (!looksLikeToken(token)) return { status: 'invalid', language: null };
  const state = await findCallerLinkState(deps.db, hashToken(token));
  if (state.status === 'invalid') return { status: 'invalid', language: null };
  if (state.status !== 'active') return state;
  const { textCode, ...link } = state;
  const number = textBackNumber(deps.config);
  return {
    ...link,
    textBack: number
      ? { number, code: textCode, afterMs: deps.config.CALLER_TEXT_FALLBACK_AFTER_MS }
      : null,
  };
}

/** The number a caller can text a location back to: the one that texted them, when known. */
function textBackNumber(config: TrackingDeps['config']): string | null {
  // A Messaging Service sid (MG…) is not a number a phone can text.
  if (config.SMS_PROVIDER === 'twilio')
    return config.TWILIO_FROM && /^\+\d{6,15}$/.test(config.TWILIO_FROM)
      ? config.TWILIO_FROM
      : null;
  // The outbox sends nothing, so nothing can answer outside a demo (see the dev outbox).
  return config.NODE_ENV === 'production' ? null : config.OUTBOX_SMS_NUMBER;
}
