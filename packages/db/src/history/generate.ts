import { callerTexts, chatQuickReplies, type ChatQuickReply } from '@locus/contract';
import type { InsertType } from 'kysely';
import type {
  AuditLog,
  CaseTransfers,
  ChatMessages,
  LocationFixes,
  LocationLookups,
  SessionCallers,
  SmsMessages,
  TrackingSessions,
} from '../generated/types';
import { callerPhrases, dispatcherPhrases, type PhraseLanguage } from './phrases';
import { Random } from './random';
import { addDays, localDay, type LocalDay } from './zoned';

/**
 * Realistic history of one team, as the API would have recorded it (issue 13): tracking
 * sessions by the team's dispatchers, their callers, the automatic lookup, the link texts and
 * what became of them (delivered or not, opened or expired, the location prompt shared or
 * denied), fixes, chats, case transfers, and the members' sign-ins. One generator serves the
 * demo seed (90 days) and the metrics bench (a million sessions), so both show the same
 * patterns. Deterministic: the same plan gives the same rows, ids included.
 *
 * Every session is over: ended, and ended before `notAfter`, so that history never looks like
 * work in progress (nothing to rejoin, nothing waiting for a caller).
 */
export interface HistoryMember {
  userId: string;
  email: string;
  firstName: string;
  lastName: string;
  /** The first instant they may appear in history (they joined then); null: all along. */
  since: number | null;
  /** Their share of the team's work: 1 is an average dispatcher, a supervisor less. */
  weight: number;
  /** When they work: 07–19 or 19–07 on a four-days-in-seven rota, or office hours on weekdays. */
  shift: 'day' | 'night' | 'office';
}

export interface HistoryTeam {
  id: string;
  name: string;
  timeZone: string;
  members: readonly HistoryMember[];
  /** Where its callers are, [latitude, longitude]. */
  centre: readonly [number, number];
  /** Area codes for its callers' numbers, all in the fictional 555-0100…0199 range. */
  areaCodes: readonly string[];
  /** The team has the automatic lookup (teams.lookup_active). */
  lookup: boolean;
  /** The first three octets of its workstations' addresses, for the sign-ins' audit rows. */
  network: string;
}

export interface HistoryPlan {
  seed: string;
  team: HistoryTeam;
  /** The first and last local day of the history, `YYYY-MM-DD`, both included. */
  firstDay: string;
  lastDay: string;
  /** Sessions over the whole range (about: a day nobody can work is skipped). */
  sessions: number;
  /** The first day's volume relative to the last (a team growing into Locus); 1: flat. */
  startVolume?: number;
  /** Fixes per caller who shares the location, [fewest, most]. */
  fixesPerCaller: readonly [number, number];
  /** Nothing happens at or after this instant (epoch ms): sessions end before it. */
  notAfter: number;
  /** Sessions per yielded batch. */
  batchSize?: number;
  /** Where the texted links pointed (the texts keep it, with the token blanked). */
  publicUrl?: string;
}

/** The columns history fills, each given (null where nothing happened). */
type Row<T, K extends keyof T> = { [P in K]-?: Exclude<InsertType<T[P]>, undefined> };

export type HistorySession = Row<
  TrackingSessions,
  | 'id'
  | 'team_id'
  | 'created_by'
  | 'dispatcher_id'
  | 'status'
  | 'lifecycle'
  | 'created_at'
  | 'last_active_at'
  | 'ended_at'
  | 'location_type'
  | 'request_error'
  | 'chat_initiated_at'
  | 'first_fix_at'
  | 'first_fix_source'
  | 'first_fix_uncertainty_m'
  | 'best_uncertainty_m'
  | 'texts_sent'
  | 'lookup_requested_at'
  | 'lookup_answered_at'
>;
export type HistoryCaller = Row<
  SessionCallers,
  | 'id'
  | 'session_id'
  | 'phone_number'
  | 'language'
  | 'created_at'
  | 'text_code'
  | 'link_opened_at'
  | 'prompt_shown_at'
  | 'shared_at'
  | 'denied_at'
  | 'chat_opened_at'
  | 'texts_sent'
  | 'first_text_at'
  | 'text_delivered_at'
>;
export type HistoryLookup = Row<
  LocationLookups,
  | 'id'
  | 'session_id'
  | 'caller_id'
  | 'status'
  | 'error'
  | 'latitude'
  | 'longitude'
  | 'uncertainty_radius_m'
  | 'captured_at'
  | 'created_at'
  | 'answered_at'
>;
export type HistoryText = Row<
  SmsMessages,
  | 'id'
  | 'direction'
  | 'session_id'
  | 'caller_id'
  | 'phone_number'
  | 'body'
  | 'language'
  | 'status'
  | 'provider'
  | 'provider_message_id'
  | 'error'
  | 'created_at'
  | 'sent_at'
>;
export type HistoryFix = Row<
  LocationFixes,
  | 'session_id'
  | 'seq'
  | 'caller_id'
  | 'latitude'
  | 'longitude'
  | 'uncertainty_radius_m'
  | 'source'
  | 'captured_at'
  | 'received_at'
>;
export type HistoryChat = Row<
  ChatMessages,
  | 'id'
  | 'session_id'
  | 'caller_id'
  | 'seq'
  | 'sender'
  | 'sender_user_id'
  | 'sender_name'
  | 'body'
  | 'language'
  | 'quick_reply'
  | 'translation_language'
  | 'translation_text'
  | 'translation_status'
  | 'sent_at'
>;
export type HistoryTransfer = Row<
  CaseTransfers,
  | 'id'
  | 'session_id'
  | 'team_id'
  | 'from_user_id'
  | 'to_user_id'
  | 'status'
  | 'machine_snapshot'
  | 'offered_at'
  | 'expires_at'
  | 'decided_at'
>;
export type HistoryAudit = Row<
  AuditLog,
  'action' | 'actor_user_id' | 'subject' | 'detail' | 'team_id' | 'ip' | 'at'
>;

export interface HistoryBatch {
  sessions: HistorySession[];
  callers: HistoryCaller[];
  lookups: HistoryLookup[];
  texts: HistoryText[];
  fixes: HistoryFix[];
  chats: HistoryChat[];
  transfers: HistoryTransfer[];
  signIns: HistoryAudit[];
}

export const emptyBatch = (): HistoryBatch => ({
  sessions: [],
  callers: [],
  lookups: [],
  texts: [],
  fixes: [],
  chats: [],
  transfers: [],
  signIns: [],
});

// The shapes, in one place. Probabilities are per session or per caller, as named.
const languages: readonly { language: PhraseLanguage; weight: number }[] = [
  { language: 'en', weight: 76 },
  { language: 'es', weight: 16 },
  { language: 'fr', weight: 4 },
  { language: 'zh', weight: 4 },
];
/** Sessions per local hour (0–23), relative: quiet before dawn, busiest in the afternoon. */
const weekdayHours = [
  2.0, 1.6, 1.3, 1.1, 1.0, 1.2, 1.8, 2.8, 3.6, 4.1, 4.4, 4.6, 4.8, 4.9, 5.0, 5.2, 5.4, 5.4, 5.1,
  4.6, 4.1, 3.6, 3.0, 2.5,
];
/** Weekends: later mornings, busier nights. */
const weekendHours = [
  3.0, 2.7, 2.3, 1.7, 1.2, 1.1, 1.3, 1.8, 2.6, 3.4, 4.0, 4.4, 4.6, 4.7, 4.8, 4.9, 5.0, 5.0, 4.9,
  4.7, 4.5, 4.3, 3.9, 3.4,
];
const hourIndexes = Array.from({ length: 24 }, (_, h) => h);
/** Sessions per weekday (0 = Sunday), relative. */
const weekdayVolume = [0.72, 1.0, 1.0, 1.02, 1.05, 1.1, 0.86];
const lookupOutcomes = [
  { status: 'found', weight: 58 },
  { status: 'not-found', weight: 27 },
  { status: 'failed', weight: 6 },
  { status: 'timed-out', weight: 9 },
] as const;
const textOutcomes = [
  { status: 'delivered', weight: 89 },
  { status: 'sent', weight: 3 },
  { status: 'undelivered', weight: 5 },
  { status: 'failed', weight: 3 },
] as const;
const textCodeAlphabet = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ';
const hexAlphabet = '0123456789abcdef';
const tokenAlphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const second = 1000;
const minute = 60 * second;
const hour = 60 * minute;
/** A caller link must be opened within this long (CALLER_LINK_OPEN_WITHIN_SECONDS). */
const linkOpenWithin = 2 * hour;
/** The API waits this long for the lookup before calling it timed out (LOOKUP_WAIT_MS). */
const lookupWait = 8 * second;
const transferTtl = minute;

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));
const round6 = (value: number) => Math.round(value * 1e6) / 1e6;
const round1 = (value: number) => Math.round(value * 10) / 10;

/** Every local day from `first` to `last`. */
function daysBetween(first: string, last: string): string[] {
  const days: string[] = [];
  for (let day = first; day <= last; day = addDays(day, 1)) days.push(day);
  return days;
}

/**
 * Sessions per day: the weekday's volume, the team's growth, day-to-day noise and the odd very
 * busy day (a storm), scaled so that the days add up to `plan.sessions` exactly.
 */
function sessionsPerDay(plan: HistoryPlan, days: readonly string[]): number[] {
  const random = new Random(`${plan.seed}:volume`);
  const startVolume = plan.startVolume ?? 1;
  const weights = days.map((day, i) => {
    const growth = startVolume + (1 - startVolume) * (days.length > 1 ? i / (days.length - 1) : 1);
    const weekday = new Date(`${day}T00:00:00Z`).getUTCDay();
    const spike = random.chance(0.02) ? random.between(1.5, 2.2) : 1;
    return weekdayVolume[weekday]! * growth * random.logNormal(1, 0.12) * spike;
  });
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  const exact = weights.map((weight) => (weight / total) * plan.sessions);
  const counts = exact.map(Math.floor);
  let missing = plan.sessions - counts.reduce((sum, n) => sum + n, 0);
  const byRemainder = exact
    .map((value, i) => ({ i, remainder: value - Math.floor(value) }))
    .sort((a, b) => b.remainder - a.remainder || a.i - b.i);
  for (const { i } of byRemainder) {
    if (missing <= 0) break;
    counts[i]! += 1;
    missing -= 1;
  }
  return counts;
}

interface Rota {
  member: HistoryMember;
  /** The rota's phase: which four days in seven they work. */
  phase: number;
  index: number;
}

/** Days since 1970-01-01 of a local date: the rota turns on it. */
const dayNumber = (date: string) => Math.round(Date.parse(`${date}T00:00:00Z`) / 86_400_000);

/** Whether the rota has them at work on the day with this number (1970-01-01 a Thursday). */
function worksOn(rota: Rota, day: number): boolean {
  if (rota.member.shift === 'office') {
    const weekday = (day + 4) % 7;
    return weekday >= 1 && weekday <= 5;
  }
  return (day + rota.phase) % 7 < 4;
}

/**
 * Who is at a console, per local hour of the day with this number (a night shift's early
 * hours belong to the shift that started the evening before).
 */
function dutyByHour(rotas: readonly Rota[], day: number): Rota[][] {
  const today = rotas.map((rota) => worksOn(rota, day));
  const yesterday = rotas.map((rota) => worksOn(rota, day - 1));
  return hourIndexes.map((h) =>
    rotas.filter((rota, i) => {
      switch (rota.member.shift) {
        case 'office':
          return h >= 8 && h < 17 && today[i]!;
        case 'day':
          return h >= 7 && h < 19 && today[i]!;
        case 'night':
          return h >= 19 ? today[i]! : h < 7 && yesterday[i]!;
      }
    }),
  );
}

const joined = (member: HistoryMember, at: number) => member.since === null || member.since <= at;

/** The whole history, in batches of about `plan.batchSize` sessions (with their rows). */
export function* generateHistory(plan: HistoryPlan): Generator<HistoryBatch> {
  const days = daysBetween(plan.firstDay, plan.lastDay);
  const counts = sessionsPerDay(plan, days);
  const rotas: Rota[] = plan.team.members.map((member, index) => ({
    member,
    index,
    phase: new Random(`${plan.seed}:rota:${member.userId}`).int(0, 6),
  }));
  const batchSize = plan.batchSize ?? 5_000;
  let batch = emptyBatch();
  for (const [i, date] of days.entries()) {
    const day = localDay(plan.team.timeZone, date);
    const random = new Random(`${plan.seed}:${date}`);
    const duty = dutyByHour(rotas, dayNumber(date));
    const context: DayContext = { plan, day, random, rotas, duty };
    for (let n = 0; n < counts[i]!; n += 1) {
      generateSession(context, batch);
      if (batch.sessions.length >= batchSize) {
        yield batch;
        batch = emptyBatch();
      }
    }
    generateSignIns(context, batch);
  }
  if (batch.sessions.length > 0 || batch.signIns.length > 0) yield batch;
}

interface DayContext {
  plan: HistoryPlan;
  day: LocalDay;
  random: Random;
  rotas: readonly Rota[];
  /** Who is on duty, per local hour of the day. */
  duty: readonly Rota[][];
}

/** A caller's story, in milliseconds from the session's start until it is placed in time. */
interface CallerStory {
  id: string;
  phoneNumber: string;
  language: PhraseLanguage;
  textCode: string;
  position: readonly [number, number];
  linkOpened: number | null;
  promptShown: number | null;
  shared: number | null;
  denied: number | null;
  texts: {
    id: string;
    at: number;
    status: (typeof textOutcomes)[number]['status'];
    sentAfter: number;
  }[];
  fixes: { at: number; radius: number; source: 'TEXT_MESSAGE' | 'RAPID_SOS' }[];
}

const offset = (random: Random, position: readonly [number, number], metres: number) => {
  const north = random.normal() * metres;
  const east = random.normal() * metres;
  const latitude = position[0] + north / 111_320;
  const longitude = position[1] + east / (111_320 * Math.cos((position[0] * Math.PI) / 180));
  return [round6(latitude), round6(longitude)] as const;
};

function generateSession(context: DayContext, batch: HistoryBatch): void {
  const { plan, day, random, rotas } = context;
  const team = plan.team;
  const hours = day.weekday === 0 || day.weekday === 6 ? weekendHours : weekdayHours;
  const hourOfDay = random.weighted(hourIndexes, (h) => hours[h]!);
  const msOfDay = hourOfDay * hour + random.int(0, hour - 1);
  let start = day.at(msOfDay);
  const eligible = rotas.filter((rota) => joined(rota.member, start));
  if (eligible.length === 0) return;
  const duty = context.duty[hourOfDay]!.filter((rota) => joined(rota.member, start));
  const creator = random.weighted(duty.length > 0 ? duty : eligible, (r) => r.member.weight);

  const sessionId = random.uuid();
  const callList = random.chance(0.045);
  const language = random.weighted(languages, (l) => l.weight).language;
  const callerCount = callList ? random.int(2, 5) : 1;
  const home = offset(random, team.centre, 12_000);
  const callers: CallerStory[] = [];
  const usedNumbers = new Set<string>();
  while (callers.length < callerCount) {
    const phoneNumber = `+1${random.pick(team.areaCodes)}5550${random.int(100, 199)}`;
    if (usedNumbers.has(phoneNumber)) continue;
    usedNumbers.add(phoneNumber);
    callers.push({
      id: random.uuid(),
      phoneNumber,
      // A call list's people mostly share the team's language; a single caller is anyone.
      language: callList && random.chance(0.8) ? 'en' : language,
      textCode: random.code(textCodeAlphabet, 4),
      position: callList ? offset(random, home, 3_000) : home,
      linkOpened: null,
      promptShown: null,
      shared: null,
      denied: null,
      texts: [],
      fixes: [],
    });
  }
  const first = callers[0]!;

  // The automatic lookup, for one caller, when the team has it.
  let lookup: {
    id: string;
    status: (typeof lookupOutcomes)[number]['status'];
    requested: number;
    answered: number | null;
    radius: number | null;
    captured: number | null;
  } | null = null;
  let requestError: string | null = null;
  if (!callList && team.lookup && random.chance(0.88)) {
    const requested = random.between(300, 1_500);
    const status = random.weighted(lookupOutcomes, (o) => o.weight).status;
    let answered: number;
    if (status === 'found') answered = requested + clamp(random.logNormal(2_800, 0.45), 900, 7_800);
    else if (status === 'timed-out') answered = requested + lookupWait + random.between(5, 300);
    else answered = requested + clamp(random.logNormal(1_600, 0.5), 300, 7_000);
    const radius = status === 'found' ? round1(clamp(random.logNormal(30, 0.9), 4, 2_500)) : null;
    lookup = {
      id: random.uuid(),
      status,
      requested,
      answered,
      radius,
      captured: status === 'found' ? answered - random.between(1_000, 20_000) : null,
    };
    if (status === 'found') {
      first.fixes.push({
        at: answered + random.between(40, 250),
        radius: radius!,
        source: 'RAPID_SOS',
      });
    } else {
      requestError =
        status === 'not-found'
          ? 'lookup-no-location'
          : status === 'timed-out'
            ? 'lookup-timeout'
            : 'rapid-sos-unavailable';
    }
  }

  // The link texts: every caller of a call list; else when the lookup did not find the caller
  // (and now and then after it did, to follow a caller on the move).
  const texting =
    lookup === null || (lookup.status === 'found' ? random.chance(0.12) : random.chance(0.93));
  if (texting) {
    let at = lookup
      ? lookup.answered! + clamp(random.logNormal(6_000, 0.6), 1_500, 90_000)
      : random.between(1_500, 6_000);
    for (const caller of callers) {
      const failed = textCaller(random, caller, at, plan.fixesPerCaller);
      if (failed) requestError = 'sms-failed';
      at += random.between(150, 700);
    }
  }

  // The chat: with a caller whose page is open.
  const opened = callers.filter((caller) => caller.linkOpened !== null);
  let chatAt: number | null = null;
  const chat: {
    at: number;
    caller: CallerStory;
    fromDispatcher: boolean;
    quickReply: ChatQuickReply | null;
    phrase: number;
  }[] = [];
  if (opened.length > 0 && random.chance(language === 'en' ? 0.2 : 0.32)) {
    const caller = opened[0]!;
    chatAt = caller.linkOpened! + random.between(5_000, 90_000);
    let at = chatAt;
    const messages = random.int(2, 10);
    for (let m = 0; m < messages; m += 1) {
      at += clamp(random.logNormal(15_000, 0.6), 2_000, 5 * minute);
      const fromDispatcher = m % 2 === 0 || random.chance(0.2);
      const quickReply =
        fromDispatcher && random.chance(0.3) ? random.pick(chatQuickReplies) : null;
      chat.push({
        at,
        caller,
        fromDispatcher,
        quickReply,
        phrase: random.int(0, (fromDispatcher ? dispatcherPhrases : callerPhrases).length - 1),
      });
    }
  }

  // Every event, to place the end after the last one.
  const fixes: { at: number; radius: number; source: string; caller: CallerStory }[] = [];
  let last = lookup?.answered ?? 0;
  for (const caller of callers) {
    for (const fix of caller.fixes) {
      fixes.push({ at: fix.at, radius: fix.radius, source: fix.source, caller });
      last = Math.max(last, fix.at);
    }
    for (const text of caller.texts) last = Math.max(last, text.at + text.sentAfter);
    last = Math.max(last, caller.linkOpened ?? 0, caller.promptShown ?? 0, caller.denied ?? 0);
  }
  for (const message of chat) last = Math.max(last, message.at);
  const located = fixes.length > 0;
  last += located
    ? clamp(random.logNormal(6 * minute, 0.7), minute, 90 * minute)
    : clamp(random.logNormal(3 * minute, 0.6), 30 * second, 45 * minute);
  const duration = Math.round(last);

  // Case transfers: an accepted one hands the session to a colleague on duty.
  let dispatcher = creator.member;
  const transfer =
    random.chance(0.033) && duration > 2 * minute
      ? (() => {
          const colleagues = (duty.length > 1 ? duty : eligible).filter((r) => r !== creator);
          if (colleagues.length === 0) return null;
          const to = random.weighted(colleagues, (r) => r.member.weight).member;
          const offered = random.between(minute, Math.min(duration - minute, 20 * minute));
          const outcome = random.weighted(
            [
              { status: 'accepted', weight: 75 },
              { status: 'denied', weight: 15 },
              { status: 'expired', weight: 10 },
            ] as const,
            (o) => o.weight,
          ).status;
          const decided =
            outcome === 'expired' ? offered + transferTtl : offered + random.between(4_000, 45_000);
          if (outcome === 'accepted') dispatcher = to;
          return { to, offered, decided, status: outcome };
        })()
      : null;

  // Placed in time: a session of the last evening must still end before `notAfter`.
  if (start + duration >= plan.notAfter) start = plan.notAfter - duration - minute;
  const at = (ms: number) => new Date(start + Math.round(ms));

  const firstFix = fixes.reduce<(typeof fixes)[number] | null>(
    (earliest, fix) => (earliest === null || fix.at < earliest.at ? fix : earliest),
    null,
  );
  const best = fixes.reduce<number | null>(
    (smallest, fix) => (smallest === null || fix.radius < smallest ? fix.radius : smallest),
    null,
  );
  const texted = callers.some((caller) => caller.texts.length > 0);
  // What the session and each caller keep of their texts and lookup (as the triggers of
  // migration metrics-counters record them): a text counts once the provider took it.
  const sentTexts = (caller: (typeof callers)[number]) =>
    caller.texts.filter((text) => text.status !== 'failed');
  const lookupAnswered =
    lookup && (lookup.status === 'found' || lookup.status === 'not-found')
      ? at(lookup.answered ?? lookup.requested)
      : null;
  batch.sessions.push({
    id: sessionId,
    team_id: team.id,
    created_by: creator.member.userId,
    dispatcher_id: dispatcher.userId,
    status: 'ended',
    lifecycle: 'ended',
    created_at: at(0),
    last_active_at: at(duration),
    ended_at: at(duration),
    location_type: texted ? 'TEXT_MESSAGE' : lookup ? 'RAPID_SOS' : null,
    request_error: located ? null : requestError,
    chat_initiated_at: chatAt === null ? null : at(chatAt),
    first_fix_at: firstFix ? at(firstFix.at) : null,
    first_fix_source: firstFix ? (firstFix.source === 'RAPID_SOS' ? 'lookup' : 'link') : null,
    first_fix_uncertainty_m: firstFix ? firstFix.radius : null,
    best_uncertainty_m: best,
    texts_sent: callers.reduce((sum, caller) => sum + sentTexts(caller).length, 0),
    lookup_requested_at: lookup ? at(lookup.requested) : null,
    lookup_answered_at: lookupAnswered,
  });
  for (const caller of callers) {
    batch.callers.push({
      id: caller.id,
      session_id: sessionId,
      phone_number: caller.phoneNumber,
      language: caller.language,
      created_at: at(0),
      text_code: caller.textCode,
      link_opened_at: caller.linkOpened === null ? null : at(caller.linkOpened),
      prompt_shown_at: caller.promptShown === null ? null : at(caller.promptShown),
      shared_at: caller.shared === null ? null : at(caller.shared),
      denied_at: caller.denied === null ? null : at(caller.denied),
      chat_opened_at: chatAt !== null && caller.linkOpened !== null ? at(chatAt) : null,
      ...callerTextCounts(caller.texts, at),
    });
    for (const text of caller.texts) {
      const delivered = text.status !== 'failed';
      batch.texts.push({
        id: text.id,
        direction: 'outbound',
        session_id: sessionId,
        caller_id: caller.id,
        phone_number: caller.phoneNumber,
        // As the worker leaves it: a text the provider took keeps everything but its token.
        body: callerTexts[caller.language].sms({
          agencyName: team.name,
          link: `${plan.publicUrl ?? 'http://localhost:3000'}/share?token=${delivered ? '[sent]' : random.code(tokenAlphabet, 43)}`,
        }),
        language: caller.language,
        status: text.status,
        provider: 'twilio',
        provider_message_id: delivered ? `SM${random.code(hexAlphabet, 32)}` : null,
        error:
          text.status === 'failed'
            ? 'not-mobile'
            : text.status === 'undelivered'
              ? 'twilio 30003'
              : null,
        created_at: at(text.at),
        sent_at: delivered ? at(text.at + text.sentAfter) : null,
      });
    }
  }
  if (lookup) {
    const found = lookup.status === 'found';
    const [latitude, longitude] = found
      ? offset(random, first.position, lookup.radius! / 2)
      : [null, null];
    batch.lookups.push({
      id: lookup.id,
      session_id: sessionId,
      caller_id: first.id,
      status: lookup.status,
      error:
        lookup.status === 'failed'
          ? 'rapid-sos-unavailable'
          : lookup.status === 'timed-out'
            ? 'lookup-timeout'
            : null,
      latitude,
      longitude,
      uncertainty_radius_m: lookup.radius,
      captured_at: lookup.captured === null ? null : at(lookup.captured),
      created_at: at(lookup.requested),
      answered_at: lookup.answered === null ? null : at(lookup.answered),
    });
  }
  // Fixes and chat messages share the session's sequence, in the order they happened.
  const sequenced = [
    ...fixes.map((fix) => ({ at: fix.at, fix, message: null })),
    ...chat.map((message) => ({ at: message.at, fix: null, message })),
  ].sort((a, b) => a.at - b.at);
  for (const [index, entry] of sequenced.entries()) {
    const seq = index + 1;
    if (entry.fix) {
      const [latitude, longitude] = offset(random, entry.fix.caller.position, entry.fix.radius / 2);
      batch.fixes.push({
        session_id: sessionId,
        seq,
        caller_id: entry.fix.caller.id,
        latitude,
        longitude,
        uncertainty_radius_m: entry.fix.radius,
        source: entry.fix.source,
        captured_at: at(entry.fix.at - random.between(150, 1_500)),
        received_at: at(entry.fix.at),
      });
    } else if (entry.message) {
      // Before an accepted transfer, the one who started it wrote; after it, the colleague.
      const writer =
        transfer?.status === 'accepted' && entry.at >= transfer.decided
          ? transfer.to
          : creator.member;
      batch.chats.push(chatRow(random, entry.message, { sessionId, seq, dispatcher: writer, at }));
    }
  }
  if (transfer) {
    batch.transfers.push({
      id: random.uuid(),
      session_id: sessionId,
      team_id: team.id,
      from_user_id: creator.member.userId,
      to_user_id: transfer.to.userId,
      status: transfer.status,
      machine_snapshot: JSON.stringify({
        status: 'done',
        value: transfer.status,
        context: {
          fromUserId: creator.member.userId,
          toUserId: transfer.to.userId,
          offeredAt: start + Math.round(transfer.offered),
          ttlMs: transferTtl,
        },
      }),
      offered_at: at(transfer.offered),
      expires_at: at(transfer.offered + transferTtl),
      decided_at: at(transfer.decided),
    });
  }
}

/**
 * One caller's link text and what became of it. Returns true when the provider refused it.
 * `at`: when the dispatcher asked for it, ms from the session's start.
 */
function textCaller(
  random: Random,
  caller: CallerStory,
  at: number,
  fixesPerCaller: readonly [number, number],
): boolean {
  const send = (when: number) => {
    const status = random.weighted(textOutcomes, (o) => o.weight).status;
    const text = {
      id: random.uuid(),
      at: when,
      status,
      sentAfter: random.between(600, 2_500),
    };
    caller.texts.push(text);
    return text;
  };
  const text = send(at);
  if (text.status === 'failed' || text.status === 'undelivered') return text.status === 'failed';
  const arrived = text.at + text.sentAfter;
  let openedAt: number | null = null;
  if (random.chance(text.status === 'delivered' ? 0.78 : 0.6)) {
    openedAt = arrived + clamp(random.logNormal(35_000, 0.85), 4_000, linkOpenWithin - minute);
  } else if (random.chance(0.25)) {
    // Not opened after a few minutes: a reminder, a new link (the first one stops working).
    const reminder = send(text.at + random.between(2 * minute, 7 * minute));
    if (reminder.status !== 'failed' && reminder.status !== 'undelivered' && random.chance(0.35))
      openedAt =
        reminder.at + reminder.sentAfter + clamp(random.logNormal(30_000, 0.8), 4_000, hour);
  }
  // Never opened: the link expired unread.
  if (openedAt === null) return false;
  caller.linkOpened = openedAt;
  if (!random.chance(0.93)) return false; // the page was left before it asked
  const prompt = openedAt + random.between(1_500, 6_000);
  caller.promptShown = prompt;
  const answer = random.weighted(
    [
      { answer: 'shared', weight: 84 },
      { answer: 'denied', weight: 10 },
      { answer: 'none', weight: 6 },
    ] as const,
    (a) => a.weight,
  ).answer;
  if (answer === 'denied') {
    caller.denied = prompt + clamp(random.logNormal(5_000, 0.7), 1_000, 2 * minute);
  } else if (answer === 'shared') {
    caller.shared = prompt + clamp(random.logNormal(3_500, 0.6), 800, minute);
    // The browser's first position is coarse; the next ones settle.
    const count = random.int(fixesPerCaller[0], fixesPerCaller[1]);
    let fixAt = caller.shared + random.between(700, 3_000);
    let radius = round1(clamp(random.logNormal(40, 1.0), 3, 3_000));
    for (let i = 0; i < count; i += 1) {
      caller.fixes.push({ at: fixAt, radius, source: 'TEXT_MESSAGE' });
      fixAt += random.between(4_000, 30_000);
      radius = round1(Math.max(3, radius * random.between(0.25, 0.8)));
    }
  }
  return false;
}

function chatRow(
  random: Random,
  message: {
    at: number;
    caller: CallerStory;
    fromDispatcher: boolean;
    quickReply: ChatQuickReply | null;
    phrase: number;
  },
  session: { sessionId: string; seq: number; dispatcher: HistoryMember; at: (ms: number) => Date },
): HistoryChat {
  const callerLanguage = message.caller.language;
  const translating = callerLanguage !== 'en';
  const id = random.uuid();
  const sentAt = session.at(message.at);
  if (message.fromDispatcher) {
    const quickReply = message.quickReply;
    const phrase = dispatcherPhrases[message.phrase]!;
    // Quick replies are written in every language beforehand; other messages go through the
    // translation engine, which now and then has no answer (the original is shown, marked).
    const translated = translating && (quickReply !== null || random.chance(0.95));
    return {
      id,
      session_id: session.sessionId,
      caller_id: message.caller.id,
      seq: session.seq,
      sender: 'dispatcher',
      sender_user_id: session.dispatcher.userId,
      sender_name: `${session.dispatcher.firstName} ${session.dispatcher.lastName}`,
      body: quickReply ? callerTexts.en.quickReplies[quickReply] : phrase.en,
      language: 'en',
      quick_reply: quickReply,
      translation_language: translated ? callerLanguage : null,
      translation_text: !translated
        ? null
        : quickReply
          ? callerTexts[callerLanguage].quickReplies[quickReply]
          : phrase[callerLanguage],
      translation_status: !translating
        ? 'off'
        : quickReply
          ? 'catalogue'
          : translated
            ? 'translated'
            : 'not-translated',
      sent_at: sentAt,
    };
  }
  const phrase = callerPhrases[message.phrase]!;
  const translated = translating && random.chance(0.95);
  return {
    id,
    session_id: session.sessionId,
    caller_id: message.caller.id,
    seq: session.seq,
    sender: 'caller',
    sender_user_id: null,
    sender_name: null,
    body: phrase[callerLanguage],
    language: callerLanguage,
    quick_reply: null,
    translation_language: translated ? 'en' : null,
    translation_text: translated ? phrase.en : null,
    translation_status: !translating ? 'off' : translated ? 'translated' : 'not-translated',
    sent_at: sentAt,
  };
}

/**
 * Members sign in as their shift starts (most stay signed in for the shift), now and then again
 * later in it; a few mistype their password first. As the API audits them: `sign-in` on the
 * user's team's trail, and `sign-in.failed` with the address typed as its subject.
 */
function generateSignIns(context: DayContext, batch: HistoryBatch): void {
  const { plan, day, random, rotas } = context;
  const today = dayNumber(day.date);
  for (const rota of rotas) {
    const { member } = rota;
    if (!worksOn(rota, today)) continue;
    const shiftStart =
      member.shift === 'office' ? 8 * hour : member.shift === 'day' ? 7 * hour : 19 * hour;
    const ip = `${plan.team.network}.${20 + (rota.index % 200)}`;
    const times: number[] = [];
    if (random.chance(0.82)) times.push(shiftStart - random.between(0, 25 * minute));
    if (random.chance(0.15)) times.push(shiftStart + random.between(2 * hour, 9 * hour));
    for (const ms of times) {
      const signedIn = day.at(ms);
      if (signedIn >= plan.notAfter || !joined(member, signedIn)) continue;
      if (random.chance(0.05)) {
        const failures = random.int(1, 2);
        for (let f = failures; f >= 1; f -= 1) {
          batch.signIns.push({
            action: 'sign-in.failed',
            actor_user_id: null,
            subject: member.email,
            detail: JSON.stringify({ ip, userId: member.userId }),
            team_id: plan.team.id,
            ip,
            at: new Date(signedIn - f * random.between(10 * second, 90 * second)),
          });
        }
      }
      batch.signIns.push({
        action: 'sign-in',
        actor_user_id: member.userId,
        subject: member.userId,
        detail: JSON.stringify({ secondFactor: false, staySignedIn: random.chance(0.6) }),
        team_id: plan.team.id,
        ip,
        at: new Date(signedIn),
      });
    }
  }
}

/**
 * A caller's texts_sent (those the provider took), first_text_at (the first written, sent or
 * not) and text_delivered_at, as the triggers of migration metrics-counters record them.
 */
function callerTextCounts(
  texts: { at: number; sentAfter: number; status: string }[],
  at: (ms: number) => Date,
): Pick<HistoryCaller, 'texts_sent' | 'first_text_at' | 'text_delivered_at'> {
  const first = texts.reduce<number | null>(
    (earliest, text) => (earliest === null || text.at < earliest ? text.at : earliest),
    null,
  );
  const delivered = texts
    .filter((text) => text.status === 'delivered')
    .reduce<number | null>((earliest, text) => {
      const time = text.at + text.sentAfter;
      return earliest === null || time < earliest ? time : earliest;
    }, null);
  return {
    texts_sent: texts.filter((text) => text.status !== 'failed').length,
    first_text_at: first === null ? null : at(first),
    text_delivered_at: delivered === null ? null : at(delivered),
  };
}
