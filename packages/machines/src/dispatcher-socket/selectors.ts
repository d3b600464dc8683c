import type { SnapshotFrom } from 'xstate';
import type { dispatcherSocketMachine } from './machine';

type Snapshot = SnapshotFrom<typeof dispatcherSocketMachine>;

/** SPEC.md §4's connection status values that belong to the socket itself. */
export const connectionStatusTexts = [
  'Not Connected',
  'Connected',
  'Disconnected',
  'connect_timeout',
  'Attempting to Reconnect',
  'reconnect',
  'error',
  'Unable to Reconnect',
] as const;
export type ConnectionStatusText = (typeof connectionStatusTexts)[number];

/** The status text to show: the latest thing that happened to the socket. */
export function selectStatusText(snapshot: Snapshot): ConnectionStatusText {
  if (snapshot.matches({ connected: 'first' })) return 'Connected';
  if (snapshot.matches({ connected: 'again' })) return 'reconnect';
  if (snapshot.matches('waiting')) return snapshot.context.cause ?? 'Disconnected';
  if (snapshot.matches('reconnecting')) return 'Attempting to Reconnect';
  if (snapshot.matches('gaveUp')) return 'Unable to Reconnect';
  return 'Not Connected';
}

export const selectIsLive = (snapshot: Snapshot): boolean => snapshot.hasTag('live');
export const selectAttempts = (snapshot: Snapshot): number => snapshot.context.attempts;
