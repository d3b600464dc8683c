import {
  chatTranscriptFileName,
  chatTranscriptText,
  type ExportRow,
  type JobPayload,
  type SmsLanguage,
} from '@locus/contract';
import {
  buildEvidenceFile,
  type EvidenceRecordInput,
  type JsonValue,
} from '@locus/client/evidence';
import { createHash, type Hash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { JobContext } from '../../processor';
import { readChatTranscript, readConsentReceipts } from '@locus/db';
import {
  evidenceSession,
  exportFixes,
  exportMedia,
  exportRecordings,
  findPendingExport,
  highestStoredSeq,
  markAttemptFailed,
  markExported,
  markWriting,
  missingSeqs,
  sessionChat,
  sessionEvents,
} from './repo';

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
 * `export.upload`: writes an ended session's export for a team whose export setting is on:
 * the SPEC rows file, the chat transcript, and the evidence file (issue 15) with every fix,
 * event, chat message and consent receipt hash-chained in order and signed with the
 * deployment's Ed25519 key, under `<team>/<session>/`. It first waits until every sequence
 * number the session handed out is in Postgres: the export is never missing a fix an API
 * instance still held. Idempotent: the same files are rewritten. Each attempt shows on the
 * session (`session_exports.state`); a failure after the last retry stays visible as failed.
 */
export async function exportUpload(
  payload: JobPayload<'exportUpload'>,
  context: JobContext,
): Promise<{ fileName: string | null }> {
  const { db, job } = context;
  const pending = await findPendingExport(db, payload.sessionId);
  if (!pending) return { fileName: null };
  await markWriting(db, payload.sessionId);
  try {
    return await writeExport(context, pending);
  } catch (error) {
    const last = job === undefined || job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
    const message = error instanceof Error ? error.message : String(error);
    await markAttemptFailed(db, payload.sessionId, last ? 'failed' : 'retrying', message);
    throw error;
  }
}

type PendingExport = NonNullable<Awaited<ReturnType<typeof findPendingExport>>>;

async function writeExport(
  context: JobContext,
  pending: PendingExport,
): Promise<{ fileName: string | null }> {
  const { db, storage } = context;
  const sessionId = pending.session_id;
  await waitForEverySeq(context, sessionId, pending.expected_seq);
  await exportChatTranscript({ db, storage }, sessionId, pending.team_id);
  const fixes = await exportFixes(db, sessionId);
  const first = fixes[0];
  const folder = `${pending.team_id}/${sessionId}`;
  const baseName = first ? exportFileName(first.phone_number, first.captured_at) : null;
  if (baseName) {
    await storage.put(
      `${folder}/${baseName}`,
      JSON.stringify(fixes.map(exportRow)),
      'application/json',
    );
  }
  const media = await exportSessionMedia(context, sessionId, folder);
  const evidence = await evidenceFile(context, sessionId, fixes, media);
  const evidenceKey = `${folder}/${evidenceFileName(baseName, sessionId)}`;
  await storage.put(evidenceKey, JSON.stringify(evidence, null, 1), 'application/json');
  await markExported(db, sessionId, {
    fileName: baseName,
    storageKey: baseName ? `${folder}/${baseName}` : null,
    storage: storage.name,
    // Where a person finds it: a file path, or `s3://bucket/key`.
    evidenceKey: storage.describe(evidenceKey),
    chainHead: evidence.chain.head,
    signingKeyId: evidence.signature.keyId,
  });
  return { fileName: baseName };
}

/** `<number>_<first capture>.evidence.json` beside the rows; a session without fixes has one too. */
function evidenceFileName(rowsFileName: string | null, sessionId: string): string {
  return rowsFileName
    ? rowsFileName.replace(/\.json$/, '.evidence.json')
    : `${sessionId}.evidence.json`;
}

const seqPollMs = 250;

/**
 * Every seq up to the session's counter at its end (`expected_seq`, recorded by the API; the
 * highest stored one when Redis did not have it) must be in Postgres. Batch writers write within
 * `FIX_BATCH_MAX_DELAY_MS`, or keep retrying through an outage: the job polls a few seconds, then
 * fails the attempt naming the missing numbers, and BullMQ retries it later.
 */
async function waitForEverySeq(
  { db, log, config }: JobContext,
  sessionId: string,
  expectedSeq: number | null,
): Promise<void> {
  const upTo = expectedSeq ?? (await highestStoredSeq(db, sessionId));
  const until = Date.now() + config.EXPORT_SEQ_WAIT_MS;
  for (;;) {
    const missing = await missingSeqs(db, sessionId, upTo);
    if (missing.length === 0) return;
    if (Date.now() >= until)
      throw new Error(
        `not every position of the session is stored yet: missing seq ${missing.join(', ')} of ${upTo}`,
      );
    log.debug({ sessionId, missing }, 'export waits for the batch writers');
    await new Promise((resolve) => setTimeout(resolve, seqPollMs));
  }
}

/**
 * The session's records in the order they happened (seq), then the consent receipts in the
 * order they arrived, hash-chained and signed (`@locus/client/evidence`, which also verifies).
 * A fix's record is its SPEC export row with the stored values; a chat message's is the stored message (its
 * `chat-message` event carries the same seq and is replaced by it).
 */
async function evidenceFile(
  context: JobContext,
  sessionId: string,
  fixes: FixRow[],
  media: EvidenceRecordInput[],
) {
  const { db } = context;
  const [session, events, chat, consents] = await Promise.all([
    evidenceSession(db, sessionId),
    sessionEvents(db, sessionId),
    sessionChat(db, sessionId),
    readConsentReceipts(db, sessionId),
  ]);
  const chatBySeq = new Map(chat.map((message) => [message.seq, message]));
  const sequenced: EvidenceRecordInput[] = [
    // The SPEC row, and the values as stored: the row rounds the radius and altitude and gives
    // the capture time to the second; evidence keeps the milliseconds and the receipt time.
    ...fixes.map((fix) => ({
      kind: 'fix' as const,
      seq: fix.seq,
      data: {
        ...exportRow(fix),
        stored: {
          capturedAt: fix.captured_at.toISOString(),
          receivedAt: fix.received_at.toISOString(),
          uncertaintyRadiusM: fix.uncertainty_radius_m,
          altitude: fix.altitude,
        },
      },
    })),
    ...events
      .filter((event) => !(event.event === 'chat-message' && chatBySeq.has(event.seq)))
      .map((event) => ({
        kind: 'event' as const,
        seq: event.seq,
        data: {
          event: event.event,
          phoneNumber: event.phone_number,
          at: event.created_at.toISOString(),
          payload: event.payload as JsonValue,
        },
      })),
    ...chat.map((message) => ({
      kind: 'chat' as const,
      seq: message.seq,
      data: {
        from: message.sender,
        senderName: message.sender_name,
        phoneNumber: message.phone_number,
        text: message.body,
        language: message.language,
        quickReply: message.quick_reply,
        translationLanguage: message.translation_language,
        translationText: message.translation_text,
        translationStatus: message.translation_status,
        sentAt: message.sent_at.toISOString(),
      },
    })),
  ].sort((a, b) => a.seq - b.seq);
  const receipts: EvidenceRecordInput[] = consents.map((receipt) => ({
    kind: 'consent',
    seq: null,
    data: {
      receiptId: receipt.id,
      phoneNumber: receipt.phone_number,
      language: receipt.language,
      catalogueVersion: receipt.catalogue_version,
      agencyName: receipt.agency_name,
      shown: receipt.shown_text as JsonValue,
      tappedAt: receipt.tapped_at?.toISOString() ?? null,
      receivedAt: receipt.received_at.toISOString(),
      userAgent: receipt.user_agent,
    },
  }));
  return buildEvidenceFile({
    session: {
      id: session.id,
      teamId: session.team_id ?? '',
      agencyName: session.team_name ?? 'Emergency services',
      startedAt: session.created_at.toISOString(),
      endedAt: session.ended_at?.toISOString() ?? null,
      externalReference: session.external_reference,
    },
    exportedAt: new Date(),
    records: [...sequenced, ...receipts, ...media],
    privateKey: context.evidenceKey,
  });
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

/** What an exported picture's or recording's file is called beside the rows. */
function mediaFileName(kind: string, index: number, id: string, contentType: string): string {
  const extension = contentType.split(/[/;]/)[1] ?? 'bin';
  return `media/${String(index + 1).padStart(3, '0')}-${kind}-${id}.${extension}`;
}

/**
 * Issue 19: the session's photos, stills, snapshots and recordings are copied from the media
 * storage into the export's folder (`<team>/<session>/media/…`), and each becomes a `media`
 * record of the evidence chain with the SHA-256 of its bytes, checked here against the one
 * recorded at upload: a file changed in storage fails the export rather than being signed. A
 * recording still open when the session ended (its dashboard had not finished it) is exported
 * with the chunks stored so far, marked unfinished, with their hash.
 */
async function exportSessionMedia(
  { db, storage, mediaStorage }: Pick<JobContext, 'db' | 'storage' | 'mediaStorage'>,
  sessionId: string,
  folder: string,
): Promise<EvidenceRecordInput[]> {
  const [pictures, recordings] = await Promise.all([
    exportMedia(db, sessionId),
    exportRecordings(db, sessionId),
  ]);
  const records: EvidenceRecordInput[] = [];
  for (const [index, picture] of pictures.entries()) {
    const bytes = await mediaStorage.get(picture.storage_key);
    if (!bytes) throw new Error(`media ${picture.id} of the session is missing from storage`);
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    if (sha256 !== picture.sha256)
      throw new Error(`media ${picture.id}: the stored file no longer matches its SHA-256`);
    const file = mediaFileName(picture.kind, index, picture.id, picture.content_type);
    await storage.put(`${folder}/${file}`, bytes, picture.content_type);
    records.push({
      kind: 'media',
      seq: null,
      data: {
        id: picture.id,
        kind: picture.kind,
        file,
        contentType: picture.content_type,
        bytes: bytes.length,
        sha256,
        width: picture.width,
        height: picture.height,
        takenAt: picture.taken_at.toISOString(),
        uploadedAt: picture.uploaded_at.toISOString(),
        position:
          picture.latitude !== null && picture.longitude !== null
            ? {
                latitude: picture.latitude,
                longitude: picture.longitude,
                uncertaintyRadiusInMeters: picture.uncertainty_radius_m,
              }
            : null,
        announcedSeq: picture.seq,
      },
    });
  }
  for (const [index, recording] of recordings.entries()) {
    if (recording.chunks.length === 0) continue;
    const file = mediaFileName('recording', index, recording.id, recording.content_type);
    const key = `${folder}/${file}`;
    // Streamed chunk by chunk, hashed as it passes: an hour of video is about 270 MB. A copy
    // that failed halfway is deleted (an S3-compatible server may keep what arrived).
    const hash = createHash('sha256');
    const bytes = recording.chunks.reduce((sum, chunk) => sum + chunk.bytes, 0);
    try {
      await storage.putStream(
        key,
        Readable.from(recordingBytes(mediaStorage, recording, hash)),
        bytes,
        recording.content_type,
      );
    } catch (error) {
      await storage.delete(key).catch(() => undefined);
      throw error;
    }
    const sha256 = hash.digest('hex');
    const finished = recording.ended_at !== null;
    if (finished && recording.sha256 !== sha256) {
      // Not left beside a signed export: the attempt fails, and a retry writes it again.
      await storage.delete(key).catch(() => undefined);
      throw new Error(`recording ${recording.id}: the stored chunks no longer match its SHA-256`);
    }
    records.push({
      kind: 'media',
      seq: null,
      data: {
        id: recording.id,
        kind: 'recording',
        file,
        contentType: recording.content_type,
        bytes,
        sha256,
        startedAt: recording.started_at.toISOString(),
        endedAt: recording.ended_at?.toISOString() ?? null,
        finished,
        chunks: recording.chunks.length,
      },
    });
  }
  return records;
}

/**
 * A recording's chunks in order, one in memory at a time (each at most
 * `mediaLimits.maxRecordingChunkBytes`), each checked against the size and SHA-256 recorded at
 * upload before any of it goes out, and fed to `hash` as it passes.
 */
async function* recordingBytes(
  mediaStorage: JobContext['mediaStorage'],
  recording: Awaited<ReturnType<typeof exportRecordings>>[number],
  hash: Hash,
): AsyncGenerator<Buffer> {
  for (const chunk of recording.chunks) {
    const bytes = await mediaStorage.get(chunk.storage_key);
    if (!bytes) throw new Error(`recording ${recording.id}: chunk ${chunk.index} is missing`);
    if (
      bytes.length !== chunk.bytes ||
      createHash('sha256').update(bytes).digest('hex') !== chunk.sha256
    )
      throw new Error(
        `recording ${recording.id}: chunk ${chunk.index} no longer matches its size and SHA-256`,
      );
    hash.update(bytes);
    yield bytes;
  }
}
