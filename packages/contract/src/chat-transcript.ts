import type { SmsLanguageCode } from './languages';

/**
 * Download Chat and the session export's chat file (issue 12): one readable text, written by the
 * API (`chat-transcript`) and by the worker's export job alike, so the two never differ. Pure:
 * no I/O, no clock but the messages' own times.
 */

export interface TranscriptMessage {
  sentAt: Date;
  from: 'dispatcher' | 'caller';
  /** The dispatcher's name; ignored for a caller. */
  senderName: string | null;
  /** The caller of the conversation (E.164). */
  callerPhone: string;
  text: string;
  language: SmsLanguageCode;
  translationLanguage: SmsLanguageCode | null;
  translationText: string | null;
  translationStatus: string;
}

const languageNames: Record<SmsLanguageCode, string> = {
  en: 'English',
  es: 'Spanish',
  fr: 'French',
  zh: 'Mandarin Chinese',
};

const statusNotes: Record<string, string> = {
  'not-translated': 'not translated',
  pending: 'translation pending',
  off: 'no translation needed',
};

/** `2026-11-25 06:03:09 CST`: the moment in `timeZone` (an IANA zone), 24-hour clock. */
export function formatInZone(at: Date, timeZone: string): string {
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
      timeZoneName: 'short',
    }).formatToParts(at);
  } catch {
    // An unknown zone in the team's settings must not cost the transcript: UTC it is.
    return formatInZone(at, 'UTC');
  }
  const part = (type: Intl.DateTimeFormatPartTypes) =>
    parts.find((item) => item.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')} ${part('hour')}:${part('minute')}:${part('second')} ${part('timeZoneName')}`;
}

/** `2026-11-25 12:03:09 UTC`. */
export function formatUtc(at: Date): string {
  return `${at.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

/** Who wrote a message, as the transcript names them. */
export function transcriptAuthor(message: TranscriptMessage): string {
  return message.from === 'dispatcher'
    ? `Dispatcher ${message.senderName ?? ''}`.trim()
    : `Caller ${message.callerPhone}`;
}

/**
 * The file's name: the first caller's number and the first message's time, like the JSON export.
 * The time has no ':' (refused in Windows file names) nor milliseconds: `2026-11-25T10-00-00Z`.
 */
export function chatTranscriptFileName(phoneNumber: string, firstSentAt: Date): string {
  const time = firstSentAt
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z')
    .replace(/:/g, '-');
  return `chat_${phoneNumber}_${time}.txt`;
}

/**
 * The transcript: a header, then every message oldest first with its time in UTC and in the
 * team's zone, its author, the original (with its language) and the translation (with its
 * language, or why there is none). Plain text; a message's own line breaks are indented so they
 * cannot pass for another message.
 */
export function chatTranscriptText(input: {
  sessionId: string;
  teamName: string | null;
  timeZone: string;
  messages: TranscriptMessage[];
}): string {
  const indent = (text: string) => text.replace(/\r?\n/g, '\n    ');
  const lines = [
    'Locus chat transcript',
    `Session: ${input.sessionId}`,
    ...(input.teamName ? [`Agency: ${input.teamName}`] : []),
    `Times: UTC and ${input.timeZone}`,
    `Messages: ${input.messages.length}`,
    '',
  ];
  for (const message of input.messages) {
    lines.push(
      `[${formatUtc(message.sentAt)} | ${formatInZone(message.sentAt, input.timeZone)}] ${transcriptAuthor(message)}`,
    );
    lines.push(`  Original (${languageNames[message.language]}): ${indent(message.text)}`);
    if (message.translationText !== null && message.translationLanguage !== null) {
      lines.push(
        `  Translation (${languageNames[message.translationLanguage]}): ${indent(message.translationText)}`,
      );
    } else {
      lines.push(`  Translation: ${statusNotes[message.translationStatus] ?? 'none'}`);
    }
    lines.push('');
  }
  return lines.join('\n');
}
