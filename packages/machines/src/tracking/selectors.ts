import type { SnapshotFrom } from 'xstate';
import type { ConnectionStatusText } from '../dispatcher-socket/selectors';
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
  const { phoneNumber } = snapshot.context;
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
