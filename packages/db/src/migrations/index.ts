import type { Migration } from 'kysely/migration';
import * as foundation from './2026-11-22T08-00_foundation';
import * as accounts from './2026-11-23T09-00_accounts';
import * as tracking from './2026-11-23T12-00_tracking';
import * as callLists from './2026-11-23T13-00_call-lists';
import * as fixDelay from './2026-11-24T16-00_fix-delay';
import * as textLocations from './2026-11-24T20-00_text-locations';
import * as userColorScheme from './2026-11-24T22-30_user-color-scheme';
import * as mfaAndSessions from './2026-11-25T02-30_mfa-and-sessions';
import * as realtimeRevocation from './2026-11-25T02-00_realtime-revocation';
import * as teamEnrolledRegistration from './2026-11-25T02-10_team-enrolled-registration';
import * as teamInvitations from './2026-11-25T02-20_team-invitations';
import * as passkeys from './2026-11-25T03-00_passkeys';
import * as tokenAuthSession from './2026-11-25T03-10_token-auth-session';
import * as sessionMfa from './2026-11-25T03-20_session-mfa';
import * as auditTrail from './2026-11-25T05-00_audit-trail';
import * as teamPsaps from './2026-11-25T05-20_team-psaps';
import * as userVerification from './2026-11-25T05-30_user-verification';
import * as broadcasts from './2026-11-25T09-10_broadcasts';
import * as caseTransferAndChat from './2026-11-25T12-00_case-transfer-and-chat';
import * as sessionLifecycle from './2026-11-25T12-10_session-lifecycle';
import * as chatOpenedPerCaller from './2026-11-25T13-20_chat-opened-per-caller';
import * as metricsRecording from './2026-11-28T16-00_metrics-recording';
import * as metricsSessions from './2026-11-28T17-01_metrics-sessions';
import * as metricsShape from './2026-11-28T17-02_metrics-shape';
import * as metricsLogins from './2026-11-28T17-03_metrics-logins';
import * as teamTimeZone from './2026-11-28T17-04_team-time-zone';
import * as metricsOwn from './2026-11-28T17-05_metrics-own';
import * as metricsCounters from './2026-11-28T20-00_metrics-counters';
import * as overwatchGroups from './2026-11-29T09-00_overwatch-groups';
import * as trainingVideos from './2026-11-29T10-00_training-videos';
import * as practiceSessions from './2026-11-29T11-00_practice-sessions';
import * as partnerApiKeys from './2026-11-29T12-00_partner-api-keys';
import * as partnerLocates from './2026-11-29T13-00_partner-locates';
import * as partnerWebhooks from './2026-11-29T14-00_partner-webhooks';
import * as evidence from './2026-11-29T15-00_evidence';
import * as evidenceFixes from './2026-11-29T15-10_evidence-fixes';
import * as webhookLeases from './2026-11-29T15-20_webhook-leases';
import * as storedAt from './2026-11-29T15-30_stored-at';
import * as reliabilityGaps from './2026-11-29T20-00_reliability-gaps';
import * as smsSendAttempts from './2026-11-29T20-30_sms-send-attempts';
import * as sessionMedia from './2026-11-29T23-30_session-media';

/**
 * Every migration, by name. Names sort by date, so Kysely runs them in order. Listed here
 * (rather than read from the folder) so that migrations work the same from source and bundles.
 */
export const migrations: Record<string, Migration> = {
  '2026-11-22T08-00_foundation': foundation,
  '2026-11-23T09-00_accounts': accounts,
  '2026-11-23T12-00_tracking': tracking,
  '2026-11-23T13-00_call-lists': callLists,
  '2026-11-24T16-00_fix-delay': fixDelay,
  '2026-11-24T20-00_text-locations': textLocations,
  '2026-11-24T22-30_user-color-scheme': userColorScheme,
  '2026-11-25T02-30_mfa-and-sessions': mfaAndSessions,
  '2026-11-25T02-00_realtime-revocation': realtimeRevocation,
  '2026-11-25T02-10_team-enrolled-registration': teamEnrolledRegistration,
  '2026-11-25T02-20_team-invitations': teamInvitations,
  '2026-11-25T03-00_passkeys': passkeys,
  '2026-11-25T03-10_token-auth-session': tokenAuthSession,
  '2026-11-25T03-20_session-mfa': sessionMfa,
  '2026-11-25T05-00_audit-trail': auditTrail,
  '2026-11-25T05-20_team-psaps': teamPsaps,
  '2026-11-25T05-30_user-verification': userVerification,
  '2026-11-25T09-10_broadcasts': broadcasts,
  '2026-11-25T12-00_case-transfer-and-chat': caseTransferAndChat,
  '2026-11-25T12-10_session-lifecycle': sessionLifecycle,
  '2026-11-25T13-20_chat-opened-per-caller': chatOpenedPerCaller,
  '2026-11-28T16-00_metrics-recording': metricsRecording,
  '2026-11-28T17-01_metrics-sessions': metricsSessions,
  '2026-11-28T17-02_metrics-shape': metricsShape,
  '2026-11-28T17-03_metrics-logins': metricsLogins,
  '2026-11-28T17-04_team-time-zone': teamTimeZone,
  '2026-11-28T17-05_metrics-own': metricsOwn,
  '2026-11-28T20-00_metrics-counters': metricsCounters,
  '2026-11-29T09-00_overwatch-groups': overwatchGroups,
  '2026-11-29T10-00_training-videos': trainingVideos,
  '2026-11-29T11-00_practice-sessions': practiceSessions,
  '2026-11-29T12-00_partner-api-keys': partnerApiKeys,
  '2026-11-29T13-00_partner-locates': partnerLocates,
  '2026-11-29T14-00_partner-webhooks': partnerWebhooks,
  '2026-11-29T15-00_evidence': evidence,
  '2026-11-29T15-10_evidence-fixes': evidenceFixes,
  '2026-11-29T15-20_webhook-leases': webhookLeases,
  '2026-11-29T15-30_stored-at': storedAt,
  '2026-11-29T20-00_reliability-gaps': reliabilityGaps,
  '2026-11-29T20-30_sms-send-attempts': smsSendAttempts,
  '2026-11-29T23-30_session-media': sessionMedia,
};
