export interface OutgoingSms {
  /** E.164. */
  to: string;
  body: string;
  /** Where the provider reports delivery (Twilio's StatusCallback); omitted when not public. */
  statusCallbackUrl?: string;
}

export interface SentSms {
  /** The provider's id for the message (Twilio's SM… sid). */
  providerMessageId: string;
  status: string;
}

/**
 * Why a text message was not accepted. `terminal` failures (an opted-out number, a landline, an
 * invalid number) must not be retried: the same request would fail the same way.
 */
export class SmsError extends Error {
  constructor(
    readonly code: 'opted-out' | 'not-mobile' | 'invalid-number' | 'rejected' | 'unavailable',
    readonly terminal: boolean,
    message: string,
  ) {
    super(message);
    this.name = 'SmsError';
  }
}

export interface SmsProvider {
  readonly name: string;
  send(message: OutgoingSms): Promise<SentSms>;
  /**
   * The provider's copy of a text it already accepted: one to `to`, created at or after `since`,
   * whose body holds `token` (the link token only that one text carries), or undefined. Lets a
   * retry after an attempt whose answer was lost (a worker killed mid-send) store the first send
   * instead of texting again. Absent for a provider that cannot tell; the outbox needs none
   * (the row is the delivery).
   */
  findSent?(query: { to: string; token: string; since: Date }): Promise<SentSms | undefined>;
}
