import type { SnapshotFrom } from 'xstate';
import type { ConnectionStatusText } from '../dispatcher-socket/selectors';
import type { SessionLifecycleState } from '../session-lifecycle/machine';
import type { TrackedLocation } from './events';
import type { RequestStatusText, trackingMachine } from './machine';

type Snapshot = SnapshotFrom<typeof trackingMachine>;

/** SPEC.md §4's status text: a failed request wins over the socket's own state. */
export function selectStatusText(
  snapshot: Snapshot,
  socketStatus: ConnectionStatusText,
): ConnectionStatusText | RequestStatusText {
  return snapshot.context.statusText ?? socketStatus;
}

/** Idle shows the number entry; tracking shows "Locating <number>" and End Tracking. */
export const selectIsTracking = (snapshot: Snapshot): boolean => snapshot.hasTag('tracking');
export const selectShowsEntryControls = (snapshot: Snapshot): boolean =>
  snapshot.hasTag('entry-controls');
export const selectShowsSmsPrompt = (snapshot: Snapshot): boolean => snapshot.hasTag('sms-prompt');
export const selectShowsWaitingModal = (snapshot: Snapshot): boolean =>
  snapshot.hasTag('waiting-for-location');
export const selectShowsEndConfirmation = (snapshot: Snapshot): boolean =>
  snapshot.hasTag('end-confirmation');
/** The SMS prompt stays up, its Send SMS button busy, while the request is on its way. */
export const selectIsSendingSms = (snapshot: Snapshot): boolean => snapshot.hasTag('sending-sms');
export const selectIsBusy = (snapshot: Snapshot): boolean => snapshot.hasTag('busy');
export const selectModal = (snapshot: Snapshot) => snapshot.context.modal;
export const selectLog = (snapshot: Snapshot) => snapshot.context.log;

/** "Locating +12025550123", or "Locating..." before the number is known. */
export function selectHeading(snapshot: Snapshot): string {
  const { phoneNumber, multi, callerNumbers } = snapshot.context;
  const count = Object.keys(callerNumbers).length;
  if (multi && count > 1) return `Locating ${count} numbers`;
  return phoneNumber ? `Locating ${phoneNumber}` : 'Locating...';
}

/** The newest fix of any caller, by capture time. */
export function selectLatestLocation(
  snapshot: Snapshot,
): { callerId: string; location: TrackedLocation } | null {
  let latest: { callerId: string; location: TrackedLocation } | null = null;
  for (const [callerId, state] of Object.entries(snapshot.context.callers)) {
    const location = state.locations[state.locations.length - 1];
    if (!location) continue;
    if (
      !latest ||
      Date.parse(location.dateTimeCaptured) > Date.parse(latest.location.dateTimeCaptured)
    )
      latest = { callerId, location };
  }
  return latest;
}

/** A multi-number session: many phones, no lookup, no SMS prompt. */
export const selectIsMulti = (snapshot: Snapshot): boolean => snapshot.context.multi;
/** The multi-number texts are on their way (the session is open, nobody texted yet). */
export const selectIsSendingMany = (snapshot: Snapshot): boolean => snapshot.hasTag('sending-many');
/** "Add numbers" is texting more numbers in the running session. */
export const selectIsAddingNumbers = (snapshot: Snapshot): boolean =>
  snapshot.hasTag('adding-numbers');
export const selectCallerNumbers = (snapshot: Snapshot) => snapshot.context.callerNumbers;

/** Where one number stands, from its text's reports and its page's events (SPEC.md §4). */
export type CallerProgress =
  | 'SMS queued'
  | 'SMS sent'
  | 'SMS delivered'
  | 'Link opened'
  | 'Sharing'
  | 'Stopped'
  | 'Failed'
  | 'Opted out';

export function callerProgress(snapshot: Snapshot, callerId: string): CallerProgress {
  const state = snapshot.context.callers[callerId];
  const sms = snapshot.context.smsStatus[callerId];
  if (state?.sharing) return 'Sharing';
  if (state && state.locations.length > 0) return 'Stopped';
  if (state?.connected) return 'Link opened';
  switch (sms) {
    case 'failed':
    case 'undelivered':
      return 'Failed';
    case 'opted-out':
      return 'Opted out';
    case 'delivered':
      return 'SMS delivered';
    case 'queued':
      return 'SMS queued';
    default:
      return 'SMS sent';
  }
}

/**
 * Every phone of the session in the order it was added (the first typed number first), each
 * with its progress; callers that sent fixes before their number was known come last.
 */
export function selectCallerRows(
  snapshot: Snapshot,
): { callerId: string; phoneNumber: string; progress: CallerProgress }[] {
  const { callerNumbers, callers, phoneNumber } = snapshot.context;
  const ids = [...Object.keys(callerNumbers)];
  for (const id of Object.keys(callers)) if (!(id in callerNumbers)) ids.push(id);
  return ids.map((callerId) => ({
    callerId,
    phoneNumber: callerNumbers[callerId] ?? phoneNumber ?? 'Unknown number',
    progress: callerProgress(snapshot, callerId),
  }));
}

/** The tracking machine's request steps, by the session-lifecycle state each one is in. */
const lifecycleOfRequestStep: Record<string, SessionLifecycleState> = {
  starting: 'requested',
  startingMany: 'requested',
  lookingUp: 'lookingUp',
  smsPrompt: 'texting',
  smsDeclined: 'texting',
  requestingSms: 'texting',
  sendingMany: 'texting',
  sendManyFailed: 'texting',
  settling: 'waiting',
  awaitingLocation: 'waiting',
  settlingLookup: 'sharing',
  awaitingProviderFix: 'sharing',
  located: 'sharing',
};

/**
 * The console's session in the server's session-lifecycle names (requested, lookingUp, texting,
 * waiting, sharing): the dashboard and the API speak of a session's state alike. Null when the
 * console runs no session (it was ended, or never started). A resumed session is sharing once a
 * location is back, else waiting for the caller after a text, else just requested.
 */
export function selectLifecycleState(snapshot: Snapshot): SessionLifecycleState | null {
  if (!snapshot.hasTag('tracking')) return null;
  const value = snapshot.value as { tracking?: { request?: unknown } };
  const step = typeof value.tracking?.request === 'string' ? value.tracking.request : null;
  const known = step === null ? undefined : lifecycleOfRequestStep[step];
  if (known) return known;
  const located = Object.values(snapshot.context.callers).some((c) => c.locations.length > 0);
  if (located) return 'sharing';
  return snapshot.context.locationType === 'TEXT_MESSAGE' ? 'waiting' : 'requested';
}
