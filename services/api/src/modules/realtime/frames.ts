import type { ErrorCode, SessionEventName } from '@locus/contract';

/**
 * A sequenced frame is built in two pieces around its sequence number, because the number is
 * assigned inside Redis: `{"event":"<name>","data":{"seq":` + seq + `,<rest of data>}`.
 * The same bytes are then written to every dispatcher socket, on every instance.
 */
export function framePieces(event: string, bodyJson: string): [string, string] {
  return [
    `{"event":"${event}","data":{"seq":`,
    bodyJson === '{}' ? '}}' : `,${bodyJson.slice(1)}}`,
  ];
}

/** `bodyJson` is the event's data without `seq`, as JSON text (as it is persisted). */
export function sequencedFrame(
  event: SessionEventName | string,
  seq: number,
  bodyJson: string,
): string {
  const [prefix, suffix] = framePieces(event, bodyJson);
  return prefix + seq + suffix;
}

const SEQ_MARKER = Buffer.from('"seq":');

/** Reads `seq` from a sequenced frame without parsing the JSON (hot path: every fix, every socket). */
export function readSeq(frame: Buffer): number {
  const at = frame.indexOf(SEQ_MARKER);
  if (at < 0) return 0;
  let seq = 0;
  for (let i = at + SEQ_MARKER.length; i < frame.length; i += 1) {
    const digit = frame[i]! - 48;
    if (digit < 0 || digit > 9) break;
    seq = seq * 10 + digit;
  }
  return seq;
}

/**
 * The delivery latency (`locus_delivery_seconds`) runs from a fix accepted to its frame written
 * to a dispatcher socket, possibly on another instance, and no frame carries a server time. So
 * the copy of a fix's frame published on the session's channel (not the replay stream's) is
 * prefixed with the accepting instance's clock in decimal milliseconds; a frame itself always
 * starts with `{`. The fan-out reads the digits and hands on a view of the bytes after them: no
 * copy, no JSON, and a dispatcher receives exactly the frame. (Instances' clocks are assumed
 * NTP-synchronised; a few milliseconds of skew show in the figure.)
 */
export function stampAccepted(acceptedAtMs: number): string {
  return String(Math.trunc(acceptedAtMs));
}

const OPEN_BRACE = 0x7b;

/** Splits a published message into its accepted-at stamp (0 when none) and the frame. */
export function unstamp(message: Buffer): { acceptedAtMs: number; frame: Buffer } {
  if (message[0] === OPEN_BRACE) return { acceptedAtMs: 0, frame: message };
  let acceptedAtMs = 0;
  let i = 0;
  for (; i < message.length; i += 1) {
    const digit = message[i]! - 48;
    if (digit < 0 || digit > 9) break;
    acceptedAtMs = acceptedAtMs * 10 + digit;
  }
  return { acceptedAtMs, frame: message.subarray(i) };
}

export function frame(event: string, data: unknown): string {
  return JSON.stringify({ event, data });
}

export function errorFrame(
  error: ErrorCode,
  message: string,
  issues?: { path: string; message: string }[],
): string {
  return frame('error', issues ? { error, message, issues } : { error, message });
}

/** The data of `new-location-available` without `seq`, in one key order for live and replay. */
export function locationBody(
  sessionId: string,
  callerId: string,
  location: {
    latitude: number;
    longitude: number;
    uncertaintyRadiusInMeters: number;
    altitude: number | null;
    address: string | null;
    capturedFromSource: string;
    dateTimeCaptured: string;
  },
  /** Only for a fix that arrived late; absent otherwise, to keep every other frame as it was. */
  delayMs?: number | null,
  /** Only for a fix the caller texted back; absent otherwise. */
  deliveredBy?: 'sms' | null,
  /** Only for a fix from a phone whose clock runs ahead; absent otherwise. */
  clockSkewMs?: number | null,
): Record<string, unknown> {
  const body: Record<string, unknown> = {
    sessionId,
    callerId,
    latitude: location.latitude,
    longitude: location.longitude,
    uncertaintyRadiusInMeters: location.uncertaintyRadiusInMeters,
    altitude: location.altitude,
    address: location.address,
    capturedFromSource: location.capturedFromSource,
    dateTimeCaptured: location.dateTimeCaptured,
  };
  if (delayMs !== undefined && delayMs !== null) body.delayMs = delayMs;
  if (clockSkewMs !== undefined && clockSkewMs !== null) body.clockSkewMs = clockSkewMs;
  if (deliveredBy) body.deliveredBy = deliveredBy;
  return body;
}
