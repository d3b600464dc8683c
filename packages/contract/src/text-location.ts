/**
 * Location by text message: what the caller's page prefills for the caller to send when its
 * positions do not get through on the internet, e.g.
 *
 *     LOC 38.89770,-77.03650 ±12m 14:02:10Z #K7Q2
 *
 * latitude and longitude in decimal degrees (5 decimals, about a metre), the accuracy in whole
 * metres, the capture time of day in UTC (the server takes the latest such time that is not in
 * the future), and the caller's text code. Short enough for one text in any encoding (± makes it
 * UCS-2: 70 characters). Zod-free: the caller's page imports it.
 */
export const textLocationFormat = {
  prefix: 'LOC',
  /** No 0/O or 1/I, so a code read aloud or retyped survives. 32 symbols: 20 bits in 4. */
  codeAlphabet: '23456789ABCDEFGHJKLMNPQRSTUVWXYZ',
  codeLength: 4,
  /** Accuracy is written up to this many metres (a wider circle says little more). */
  maxAccuracyM: 99_999,
} as const;

export interface TextLocationFix {
  latitude: number;
  longitude: number;
  accuracy: number;
  /** Epoch milliseconds. */
  capturedAt: number;
}

/** The page's location text for one fix; see {@link textLocationFormat}. */
export function formatLocationText(fix: TextLocationFix, code: string): string {
  const accuracy = Math.min(textLocationFormat.maxAccuracyM, Math.round(fix.accuracy));
  const time = new Date(fix.capturedAt).toISOString().slice(11, 19);
  return `${textLocationFormat.prefix} ${fix.latitude.toFixed(5)},${fix.longitude.toFixed(5)} ±${accuracy}m ${time}Z #${code}`;
}

/**
 * An `sms:` link that opens the phone's messages app with `body` ready to send to `number`.
 * `?&body=` is the form both iOS (which reads `&body=`) and Android (`?body=`) accept.
 */
export function smsUri(number: string, body: string): string {
  return `sms:${number}?&body=${encodeURIComponent(body)}`;
}
