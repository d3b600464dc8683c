import { callerTexts, SmsLanguage } from '@locus/contract';
import type { TrackingDeps } from '../location/service';
import { publishSessionEvent } from '../realtime/session-publisher';
import { parseTextLocation, type ParsedTextLocation } from './location-text/parse';
import {
  applyDeliveryStatus,
  findCallersTextedAt,
  holdsProviderMessage,
  insertInboundSms,
  keepEarlyReport,
  lastKnownPosition,
  lastLanguageTexted,
  optIn,
  optOut,
  setInboundNote,
} from './repo';
import { reportSmsOutcomes } from './outcome-reporter';
import { inboundNote, locateFromText, pickCaller } from './text-location';

// The keywords carriers and Twilio treat as opt-out, help and opt-in (CTIA).
const stopWords = new Set([
  'STOP',
  'STOPALL',
  'UNSUBSCRIBE',
  'CANCEL',
  'END',
  'QUIT',
  'REVOKE',
  'OPTOUT',
]);
const helpWords = new Set(['HELP', 'INFO']);
const startWords = new Set(['START', 'UNSTOP', 'YES']);

const keywordOf = (body: string) => body.trim().toUpperCase();
const isKeyword = (keyword: string) =>
  stopWords.has(keyword) || helpWords.has(keyword) || startWords.has(keyword);

/**
 * A text from a phone. STOP opts the number out and revokes its links; HELP is answered; START
 * opts back in. A text holding a position (the page's "LOC …" text, coordinates, a geo: URI, a
 * map link, a Plus Code) becomes a fix of the caller it answers. Whatever it says, the dispatcher
 * tracking that number sees it ("SMS Received"), with what became of its location. Returns the
 * automatic reply, if any.
 */
export async function receiveSms(
  deps: TrackingDeps,
  message: { from: string; body: string; messageSid: string | null },
): Promise<string | null> {
  const now = Date.now();
  const keyword = keywordOf(message.body);
  const callers = await findCallersTextedAt(deps.db, message.from);
  const reference = callers[0]?.active ? await lastKnownPosition(deps.db, callers[0]) : null;
  const parsed: ParsedTextLocation = isKeyword(keyword)
    ? { kind: 'none' }
    : parseTextLocation(message.body, { now, reference });
  const { caller, unknownCode } = pickCaller(callers, parsed);
  const row = await insertInboundSms(deps.db, {
    phoneNumber: message.from,
    body: message.body,
    providerMessageId: message.messageSid,
    sessionId: caller?.sessionId ?? null,
    callerId: caller?.callerId ?? null,
  });
  const language = SmsLanguage.catch('en').parse(
    caller?.language ?? (await lastLanguageTexted(deps.db, message.from)),
  );
  let reply: string | null = null;
  if (stopWords.has(keyword)) {
    await deps.hub.revokeCallers(await optOut(deps.db, message.from));
    reply = callerTexts[language].smsStopReply;
  } else if (helpWords.has(keyword)) {
    reply = callerTexts[language].smsHelpReply;
  } else if (startWords.has(keyword)) {
    await optIn(deps.db, message.from);
  }
  // A webhook Twilio retries is handled once (again only if the first try failed half-way).
  if (row.handled) return reply;
  const located = caller ? await locateFromText(deps, caller, parsed, { now, unknownCode }) : null;
  if (caller)
    await publishSessionEvent(
      deps.realtime,
      { sessionId: caller.sessionId, callerId: caller.callerId },
      'sms-received',
      {
        body: message.body.slice(0, 1600),
        ...(located
          ? {
              location: located.reason
                ? { outcome: located.outcome, reason: located.reason.slice(0, 200) }
                : { outcome: located.outcome },
            }
          : {}),
      },
    );
  await setInboundNote(deps.db, row.id, inboundNote(located, caller !== undefined, parsed));
  return reply;
}

const reportedStatuses = ['sent', 'delivered', 'undelivered', 'failed'] as const;
type ReportedStatus = (typeof reportedStatuses)[number];

/**
 * Twilio's StatusCallback: moves the message's row forward, and the session is told by the
 * outcome reporter (here at once, or by any instance within a second). A report that comes
 * before the worker stored the message's id is kept and applied when it is stored.
 */
export async function receiveDeliveryStatus(
  deps: TrackingDeps,
  report: { messageSid: string; status: string; errorCode: string | null },
): Promise<void> {
  if (!(reportedStatuses as readonly string[]).includes(report.status)) return;
  const status = report.status as ReportedStatus;
  const error = report.errorCode ? `twilio ${report.errorCode}` : null;
  let row = await applyDeliveryStatus(deps.db, report.messageSid, status, error);
  if (!row && !(await holdsProviderMessage(deps.db, report.messageSid))) {
    await keepEarlyReport(deps.db, { providerMessageId: report.messageSid, status, error });
    // The worker may have stored the id since the first try; if it stores it later, it finds
    // the kept report (it applies them after committing the id).
    row = await applyDeliveryStatus(deps.db, report.messageSid, status, error);
  }
  if (row) await reportSmsOutcomes(deps, row.id);
}
