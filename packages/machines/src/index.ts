export * from './case-transfer/index';
export * from './session-lifecycle/index';
export * from './authentication/index';
export * from './dispatcher-socket/machine';
export * from './dispatcher-socket/events';
export * from './dispatcher-socket/selectors';
export * from './tracking/events';
export {
  trackingMachine,
  trackingSnapshotVersion,
  normalisePhoneNumber,
  type CallerState,
  type LogEntry,
  type RequestStatusText,
  type TrackingContext,
  type TrackingModal,
} from './tracking/machine';
export {
  selectStatusText as selectTrackingStatusText,
  selectIsTracking,
  selectShowsEntryControls,
  selectShowsSmsPrompt,
  selectShowsWaitingModal,
  selectShowsEndConfirmation,
  selectIsSendingSms,
  selectIsBusy,
  selectModal,
  selectLog,
  selectHeading,
  selectLatestLocation,
  selectIsMulti,
  selectIsSendingMany,
  selectIsAddingNumbers,
  selectCallerNumbers,
  selectCallerRows,
  selectLifecycleState as selectTrackingLifecycleState,
  callerProgress,
  type CallerProgress,
} from './tracking/selectors';
