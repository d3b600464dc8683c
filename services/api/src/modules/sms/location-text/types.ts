/** Which kind of text the location was read from. */
export type TextLocationFormat =
  'loc' | 'coordinates' | 'geo-uri' | 'google-maps' | 'apple-maps' | 'openstreetmap' | 'plus-code';

export type ParsedTextLocation =
  /** The text holds no location we recognise (e.g. "I am at the north gate"). */
  | { kind: 'none' }
  | {
      kind: 'location';
      format: TextLocationFormat;
      /** Always finite, within [-90, 90]. */
      latitude: number;
      /** Always finite, within [-180, 180]. */
      longitude: number;
      /** Metres; null when the format does not say (map links, plain coordinates). */
      accuracyM: number | null;
      /** Epoch ms from the message itself (LOC's time of day); null when the text has none. */
      capturedAt: number | null;
      /** The LOC text code (upper-cased), null when absent. */
      code: string | null;
    }
  /**
   * Looked like a location but cannot be one. `reason` is a short English sentence for the
   * dispatcher's log, e.g. "Latitude 123.4 is out of range."
   */
  | { kind: 'invalid'; format: TextLocationFormat; reason: string; code: string | null };

export type Found = Exclude<ParsedTextLocation, { kind: 'none' }>;

/** What a format's reader found, and which characters of the normalised text it covers. */
export interface Candidate {
  start: number;
  end: number;
  result: Found;
}

export interface ParseContext {
  now: number;
  reference: { latitude: number; longitude: number } | null;
}
