/**
 * What happens to a tracking session, as the API reports it (SPEC.md §4 "Tracking"). `at` is when
 * (ms since the epoch, the server's clock): the machine stays pure (no timers, no I/O).
 */
export type SessionLifecycleEvent =
  /** request-location: the emergency-data provider is asked. */
  | { type: 'LOOKUP_STARTED'; at: number }
  /** The provider located the phone; its fix was published to the session. */
  | { type: 'LOOKUP_FOUND'; at: number }
  /** The lookup failed (or could not be made): the code is the request's error (SPEC.md §8). */
  | { type: 'LOOKUP_FAILED'; code: string; at: number }
  /** request-text-message(s), add numbers: a caller's link and its text were written. */
  | { type: 'TEXT_QUEUED'; at: number }
  /** The provider took the text (or is still retrying): the caller may now open the link. */
  | { type: 'TEXT_SENT'; at: number }
  /** The text could not be sent, or the number texted STOP (`sms-failed`, `sms-opted-out`). */
  | { type: 'TEXT_FAILED'; code: 'sms-failed' | 'sms-opted-out'; at: number }
  /** ask-location-by-text: the caller is asked to text their location back. */
  | { type: 'LOCATION_ASKED_BY_TEXT'; at: number }
  /** A fix of the session was stored (a caller's page, a texted location, the provider). */
  | { type: 'FIX_RECEIVED'; at: number }
  /** A dispatcher rejoins the session (a new socket token): it must not have ended. */
  | { type: 'REJOIN'; at: number }
  /** set-date-time-completed: End Tracking. */
  | { type: 'END'; at: number };

export type SessionLifecycleEventType = SessionLifecycleEvent['type'];
