/** The text-message languages of SPEC.md §9. English is the default. */
export type SmsLanguage = 'en' | 'es' | 'fr' | 'zh';

/** Where a fix came from (SPEC.md §3 Location, capturedFromSource). */
export type LocationSource = 'TEXT_MESSAGE' | 'RAPID_SOS';

/** One fix as the dispatcher receives it (the contract's Location, plus its session seq). */
export interface TrackedLocation {
  latitude: number;
  longitude: number;
  uncertaintyRadiusInMeters: number;
  altitude: number | null;
  address: string | null;
  capturedFromSource: LocationSource;
  /** ISO 8601, UTC. */
  dateTimeCaptured: string;
}

/** What the SMS provider reported about the text message with the caller's link. */
export type SmsDeliveryStatus = 'sent' | 'delivered' | 'failed' | 'undelivered';

/** Why the server closed the dispatcher socket for good (no reconnect can help). */
export type SessionClosedReason = 'ended' | 'not-found' | 'invalid-token';

/** Error codes of SPEC.md §8 that change what the dispatcher sees. */
export type RequestErrorCode =
  | 'verify-email'
  | 'unauthorized-domain'
  | 'lookup-unavailable-no-team'
  | 'lookup-unavailable-not-active'
  | 'lookup-unavailable-invalid-keys'
  | 'rapid-sos-unavailable'
  | (string & {});

/** What an effect (start stream, lookup, SMS request) rejects with. */
export interface RequestError {
  code: RequestErrorCode;
  message: string;
}

/**
 * What the dispatcher console tells the tracking machine. `LIVE.*` come from the dispatcher
 * socket, one per realtime event of SPEC.md §4; the rest from the dispatcher.
 */
export type TrackingEvent =
  | { type: 'LOCATE'; phoneNumber: string }
  /** Reloading the dashboard during an active session (the 60-second rejoin rule). */
  | {
      type: 'RESUME';
      phoneNumber: string;
      connectionRequestUuid: string;
      token: string;
      locationType: LocationSource | null;
    }
  | { type: 'SEND_SMS'; language: SmsLanguage }
  | { type: 'DECLINE_SMS' }
  | { type: 'END_TRACKING' }
  | { type: 'CANCEL_END' }
  | { type: 'CONFIRM_END' }
  | { type: 'DISMISS_MODAL' }
  | { type: 'LIVE.LOCATION'; callerId: string; location: TrackedLocation }
  | { type: 'LIVE.CALLER_CONNECTED'; callerId: string; connected: boolean }
  | { type: 'LIVE.TAB_FOCUS'; callerId: string; focused: boolean }
  | { type: 'LIVE.SHARING'; callerId: string; sharing: boolean }
  | { type: 'LIVE.SHARING_ERROR'; callerId: string; message: string }
  | { type: 'LIVE.SMS_RECEIVED'; from: string; body: string }
  | { type: 'LIVE.SMS_STATUS'; callerId: string; status: SmsDeliveryStatus }
  | { type: 'LIVE.SESSION_CLOSED'; reason: SessionClosedReason };
