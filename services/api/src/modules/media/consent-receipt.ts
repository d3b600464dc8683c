import {
  callerTexts,
  callerTextsVersion,
  mediaLimits,
  smsLanguages,
  type SmsLanguage,
} from '@locus/contract';
import type { Database } from '@locus/db';
import { insertConsentReceipt, sessionAgencyName } from '../consent/repo';
import type { OpenRequest } from './relay';

/**
 * A consent receipt (issue 15's evidence) for a caller's Allow of a media request: what the
 * request showed, rendered in the caller's language from this release's caller texts (the
 * `media-answer` frame names neither its texts version nor the tap's time, so the receipt keeps
 * the server's version and no tap time). The screen is `media-video` or `media-photo`.
 */
export async function recordMediaConsent(
  db: Database,
  target: { sessionId: string; callerId: string },
  request: OpenRequest,
  userAgent: string | null,
  receivedAt: number,
): Promise<void> {
  const caller = await db
    .selectFrom('session_callers')
    .select('language')
    .where('id', '=', target.callerId)
    .where('session_id', '=', target.sessionId)
    .executeTakeFirst();
  const language: SmsLanguage = smsLanguages.find((code) => code === caller?.language) ?? 'en';
  const texts = callerTexts[language].page;
  const shown =
    request.kind === 'video'
      ? {
          screen: 'media-video',
          title: texts.mediaVideoRequestTitle,
          lines: [
            texts.mediaVideoRequestBody,
            ...(request.audio ? [texts.mediaVideoAudioNote] : []),
          ],
        }
      : {
          screen: 'media-photo',
          title: texts.mediaPhotoRequestTitle,
          lines: [texts.mediaPhotoRequestBody(mediaLimits.maxPhotosPerCaller)],
        };
  await insertConsentReceipt(db, {
    ...target,
    language,
    catalogueVersion: callerTextsVersion,
    agencyName: await sessionAgencyName(db, target.sessionId),
    shownText: {
      ...shown,
      button: texts.mediaAllowButton,
      renderedFromVersion: callerTextsVersion,
    },
    tappedAt: null,
    receivedAt: new Date(receivedAt),
    userAgent: userAgent?.slice(0, 512) ?? null,
  });
}
