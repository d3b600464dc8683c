import {
  chatTranscriptFileName,
  chatTranscriptText,
  type ExportRow,
  type JobPayload,
  type SmsLanguage,
} from '@locus/contract';
import type { JobContext } from '../../processor';
import { readChatTranscript } from '@locus/db';
import { exportFixes, findPendingExport, markExported } from './repo';

const round = (value: number, decimals: number) =>
  Math.round(value * 10 ** decimals) / 10 ** decimals;

type FixRow = Awaited<ReturnType<typeof exportFixes>>[number];

/** SPEC.md §3 "Export row": radius to 2 decimals, altitude to 4, capture time as a UTC string. */
export function exportRow(fix: FixRow): ExportRow {
  return {
    Dispatcher: [fix.first_name, fix.last_name].filter(Boolean).join(' '),
    PhoneNumber: fix.phone_number,
    Longitude: fix.longitude,
    Latitude: fix.latitude,
    UncertaintyRadiusInMeters: round(fix.uncertainty_radius_m, 2),
    Altitude: fix.altitude === null ? null : round(fix.altitude, 4),
    Address: fix.address,
    CapturedFromSource: fix.source as ExportRow['CapturedFromSource'],
    CapturedAt: fix.captured_at.toUTCString(),
  };
}

/** SPEC.md §9: the phone number plus the first capture time, as JSON text. */
export function exportFileName(phoneNumber: string, firstCapturedAt: Date): string {
  return `${phoneNumber}_${firstCapturedAt.toISOString()}.json`;
}

/**
 * `export.upload`: writes an ended session's fixes, for a team whose export setting is on, to
 * `<team>/<session>/<file name>` in the export storage. Idempotent: the same file is rewritten.
 */
export async function exportUpload(
  payload: JobPayload<'exportUpload'>,
  { db, storage }: JobContext,
): Promise<{ fileName: string | null }> {
  const pending = await findPendingExport(db, payload.sessionId);
  if (!pending) return { fileName: null };
  await exportChatTranscript({ db, storage }, payload.sessionId, pending.team_id);
  const fixes = await exportFixes(db, payload.sessionId);
  const first = fixes[0];
  if (!first) {
    await markExported(db, payload.sessionId, { fileName: null, storageKey: null });
    return { fileName: null };
  }
  const fileName = exportFileName(first.phone_number, first.captured_at);
  const storageKey = `${pending.team_id}/${payload.sessionId}/${fileName}`;
  await storage.put(storageKey, JSON.stringify(fixes.map(exportRow)), 'application/json');
  await markExported(db, payload.sessionId, { fileName, storageKey });
  return { fileName };
}

/**
 * The chat is part of the export (issue 12): a session that had one gets its transcript beside
 * the JSON, `<team>/<session>/chat_<number>_<first message time>.txt`, the same text as Download
 * Chat (the formatting lives in the contract).
 */
async function exportChatTranscript(
  { db, storage }: Pick<JobContext, 'db' | 'storage'>,
  sessionId: string,
  teamId: string,
): Promise<void> {
  const chat = await readChatTranscript(db, sessionId);
  const first = chat.messages[0];
  if (!first) return;
  const text = chatTranscriptText({
    sessionId,
    teamName: chat.teamName,
    timeZone: chat.timeZone,
    messages: chat.messages.map((row) => ({
      sentAt: row.sent_at,
      from: row.sender as 'dispatcher' | 'caller',
      senderName: row.sender_name,
      callerPhone: row.phone_number,
      text: row.body,
      language: row.language as SmsLanguage,
      translationLanguage: row.translation_language as SmsLanguage | null,
      translationText: row.translation_text,
      translationStatus: row.translation_status,
    })),
  });
  const fileName = chatTranscriptFileName(first.phone_number, first.sent_at);
  await storage.put(`${teamId}/${sessionId}/${fileName}`, text, 'text/plain; charset=utf-8');
}
