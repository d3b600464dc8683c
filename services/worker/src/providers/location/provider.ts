/** A device location as an emergency-data provider reports it. */
export interface ProviderLocation {
  latitude: number;
  longitude: number;
  uncertaintyRadiusInMeters: number;
  altitude: number | null;
  address: string | null;
  /** Epoch ms. */
  capturedAt: number;
}

export type LookupResult = { found: true; location: ProviderLocation } | { found: false };

/**
 * Why a lookup could not be answered (SPEC.md §8). Each is stored as the request's error, and
 * the dispatcher is offered a text message instead.
 */
export type LookupErrorCode =
  | 'lookup-unavailable-invalid-keys'
  | 'rapid-sos-unavailable'
  /** The provider did not answer in time: fall back to a text message rather than wait. */
  | 'lookup-timeout';

export class LookupError extends Error {
  constructor(
    readonly code: LookupErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'LookupError';
  }
}

/** An emergency-data provider: where is the phone with this E.164 number right now? */
export interface LocationLookupProvider {
  readonly name: string;
  locate(phoneNumber: string, signal?: AbortSignal): Promise<LookupResult>;
}
