import {
  callerTextsVersion,
  consentShownText,
  type CallerClientFrame,
  type SmsLanguage,
} from '@locus/contract';
import type { Database } from '@locus/db';
import { insertConsentReceipt, sessionAgencyName } from './repo';

type ConsentFrame = Extract<CallerClientFrame, { event: 'consent' }>['data'];

/** A phone's clock this far from the server's is not believed (the receipt keeps null). */
const believableClockSkewMs = 24 * 3_600_000;

/**
 * Keeps a consent receipt (issue 15): what the screen the caller tapped said, rendered in their
 * language by the same catalogue the page uses, the agency it named, when, and the browser. The
 * page reports the texts version it ran; the receipt keeps it beside the version the server
 * rendered from, so a page cached from an older release is visible as such.
 */
export async function recordConsent(
  db: Database,
  target: { sessionId: string; callerId: string },
  frame: ConsentFrame,
  userAgent: string | null,
  receivedAt: number,
): Promise<void> {
  const agencyName = await sessionAgencyName(db, target.sessionId);
  const language = frame.language as SmsLanguage;
  await insertConsentReceipt(db, {
    ...target,
    language,
    catalogueVersion: frame.textsVersion,
    agencyName,
    shownText: {
      screen: frame.screen,
      renderedFromVersion: callerTextsVersion,
      ...consentShownText(language, frame.screen, agencyName),
    },
    tappedAt:
      Math.abs(frame.tappedAt - receivedAt) <= believableClockSkewMs
        ? new Date(frame.tappedAt)
        : null,
    receivedAt: new Date(receivedAt),
    userAgent: userAgent?.slice(0, 512) ?? null,
  });
}
