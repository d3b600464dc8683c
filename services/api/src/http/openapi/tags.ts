import type { contract } from '@locus/contract';

/** One tag per router of the contract (the operation ids start with it), in reading order. */
export const tagDescriptions: Record<keyof typeof contract, string> = {
  health: 'Health checks for load balancers and orchestrators. No sign-in.',
  auth: 'Sign-in, sign-out, registration, e-mail confirmation and passwords.',
  mfa: 'Two-step sign-in with an authenticator app and recovery codes.',
  passkeys: 'Passkeys (WebAuthn) as a second step of sign-in.',
  authSessions: "The signed-in user's sessions and the idle timeout; a team's security policy.",
  psap: 'Public-safety answering points (agencies) a user registers with.',
  users: "A user's own profile and teams.",
  uscg: 'Coast-guard registrations waiting for a coast-guard team admin.',
  demoRequests: 'Demo requests, for platform admins.',
  devOutbox: 'Development only: the e-mails and texts Locus would have sent, and fake replies.',
  publicConfig: 'Settings the web app reads before sign-in.',
  tracking:
    'Locating a caller (SPEC.md §4): a tracking session per number, the automatic lookup, the ' +
    "text with the caller's link, and the session's fixes.",
  caseTransfer: 'Handing a live case to a colleague (SPEC.md §7).',
  chat: 'Chat with the caller: opening it and the transcript.',
  media:
    "Photos and recordings of a session (issue 19): the caller's uploads, dispatchers' snapshots and recordings, the gallery, and signed media URLs.",
  callLists: 'Call lists: numbers located together, and who may use them.',
  verification: 'Platform admins: verifying users and the e-mail domains cleared for sign-up.',
  audit: 'The audit log.',
  teams: 'Teams (agencies on Locus), their settings, agencies and texts.',
  usersAdmin: 'Admins: finding and managing users.',
  teamMembers: "Team admins: a team's members and their roles.",
  platformStatus: 'Platform admins: instances, queues and dependencies.',
  platformJobs: 'Platform admins: failed jobs, retried or discarded.',
  broadcasts: 'Platform admins: maintenance broadcasts shown on every console.',
  metrics:
    "TEAM | USER METRICS and PLATFORM METRICS: counts, time to locate, the link funnel, accuracy and sign-ins, cut in the team's time zone.",
  overwatch:
    'Overwatch (premiere level): groups of numbers watched together on one live map, with geofences, and starting a watch.',
  training: "Training videos: the deployment's list and each user's watched state.",
  apiKeys: "Team admins (enterprise level): the team's partner API keys.",
  oauth: 'OAuth 2.0 client credentials: an access token for a partner API key.',
  partner:
    "The partner API: machines of an enterprise team call it with an API key or OAuth token, and see that team's data only.",
  teamWebhooks:
    "Team admins (enterprise level): the team's webhook endpoints and their delivery log, as on the API page.",
  partnerWebhooks:
    "The partner API's webhooks: endpoints that receive the team's events, signed as Standard Webhooks says, and their delivery log.",
  teamSessions:
    "Team admins: the team's past sessions as evidence: consent receipts, the export and its signed evidence file, legal hold.",
  uploadToS3: "SPEC.md §7 upload-to-s3: export an ended session to the team's storage.",
  evidenceKeys:
    "Public: the keys that sign this deployment's evidence files, to check them offline.",
};
