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
  /** Set when the fix reached the server late (it waited on the phone): how late, in ms. */
  delayMs?: number;
  /** `sms`: the caller texted it back because their page could not get it through. */
  deliveredBy?: 'sms';
}

/** What became of the location in a text the caller sent (the contract's `sms-received.location`). */
export interface TextedLocationOutcome {
  outcome: 'mapped' | 'duplicate' | 'not-mapped';
  reason?: string;
}

/** What the caller's phone says about itself (the contract's `caller-device`). */
export interface CallerDevice {
  battery: { level: number; charging: boolean } | null;
  network: { type: string | null; effectiveType: string | null } | null;
  visibility: 'visible' | 'hidden';
  /** ISO 8601: when the page went to the background (screen locked, another app). */
  hiddenSince: string | null;
  permission: 'granted' | 'denied' | 'prompt' | null;
  /** ISO 8601. */
  reportedAt: string;
}

/** What the SMS provider reported about the text message with the caller's link. */
export type SmsDeliveryStatus = 'sent' | 'delivered' | 'failed' | 'undelivered';

/** What became of one number's text: the send request's answer, then the provider's reports. */
export type CallerSmsStatus = SmsDeliveryStatus | 'queued' | 'opted-out';

/** One phone of a session as the send requests (and the rejoin) name it. */
export interface SessionCallerNumber {
  id: string;
  phoneNumber: string;
  /** What the send request answered for its text, when it texted one. */
  status?: 'sent' | 'queued' | 'failed' | 'opted-out';
}

/** Who a multi-number request texts: typed numbers, or the team's call lists (by id). */
export type ManyTarget = { phoneNumbers: string[] } | { callListIds: string[] };

/** What a multi-number send request answered. */
export interface ManySent {
  callers: SessionCallerNumber[];
  /** Numbers the server could not text (not a phone number). */
  invalid: string[];
}

/** Why the server closed the dispatcher socket for good (no reconnect can help). */
export type SessionClosedReason = 'ended' | 'not-found' | 'invalid-token' | 'transferred';

/** A case transfer as the session's log tells it (the session event `case-transfer`). */
export interface SessionCaseTransfer {
  transferUuid: string;
  status: 'offered' | 'accepted' | 'denied' | 'cancelled' | 'expired';
  fromName: string;
  toName: string;
}

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
  /** SPEC.md §4 "Multi-number flows": text many numbers (typed, or call lists) a link each. */
  | { type: 'LOCATE_MANY'; target: ManyTarget; language: SmsLanguage }
  /** While tracking: text more typed numbers a link each, in the running session. */
  | { type: 'ADD_NUMBERS'; phoneNumbers: string[]; language: SmsLanguage }
  /** Reloading the dashboard during an active session (the 60-second rejoin rule). */
  | {
      type: 'RESUME';
      phoneNumber: string;
      connectionRequestUuid: string;
      token: string;
      locationType: LocationSource | null;
      /** Every phone of the session, first the one the dispatcher typed. */
      callers?: SessionCallerNumber[];
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
  | { type: 'LIVE.DEVICE'; callerId: string; device: CallerDevice }
  | { type: 'LIVE.SHARING'; callerId: string; sharing: boolean }
  | { type: 'LIVE.SHARING_ERROR'; callerId: string; message: string }
  | {
      type: 'LIVE.SMS_RECEIVED';
      from: string;
      body: string;
      callerId?: string;
      location?: TextedLocationOutcome;
    }
  /** A dispatcher asked the caller by text to reply with their position. */
  | { type: 'LIVE.TEXT_LOCATION_REQUESTED'; callerId: string }
  | { type: 'LIVE.SMS_STATUS'; callerId: string; status: SmsDeliveryStatus }
  | { type: 'LIVE.SESSION_CLOSED'; reason: SessionClosedReason }
  /** The session event `case-transfer`: offered, accepted, denied, cancelled or expired. */
  | { type: 'LIVE.CASE_TRANSFER'; transfer: SessionCaseTransfer }
  /** After the case went to a colleague: leave the read-only view for an empty dashboard. */
  | { type: 'LEAVE_TRANSFERRED' }
  /**
   * The chat was opened on this session: `chat-initiated` answered, or the session event
   * `chat-opened` arrived (live or in a rejoin's replay). Sets `chatInitiated`.
   */
  | { type: 'CHAT_INITIATED' };
