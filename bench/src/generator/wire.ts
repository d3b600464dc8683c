import { realtimePaths } from '@locus/contract';
import type { CallerClientFrame, CallerFix, DispatcherServerFrame } from '@locus/contract';
import type { Role, SessionCredentials, WireName } from './messages';

export type { Role };

/** What a frame from the server means to the generator. */
export type Incoming =
  /** The socket may be used: the dispatcher joined, or the caller's namespace connected. */
  | { kind: 'ready' }
  | { kind: 'fix'; capturedAt: number }
  /** The protocol needs an answer (Engine.IO heartbeat). */
  | { kind: 'reply'; frame: string }
  | { kind: 'error'; detail: string }
  | { kind: 'other' };

/**
 * How one pipeline's clients speak. The generator is the same for all three pipelines; only
 * this changes, so client-side cost is comparable and never charged to a server.
 */
export interface Wire {
  url(role: Role, port: number, session: SessionCredentials): string;
  /** Frames to send as soon as the socket opens. */
  hello(role: Role, session: SessionCredentials): string[];
  readyOnOpen(role: Role): boolean;
  encodeFix(fix: CallerFix): string;
  decode(role: Role, frame: string): Incoming;
}

const base = (port: number): string => `ws://127.0.0.1:${port}`;

/**
 * Same JSON frames as Locus; the relay forwards the caller's bytes unchanged. Written by hand,
 * not by JSON.stringify: the generator is the measuring instrument, and every µs it spends per
 * fix on a 2-core host is a µs the servers under test wait for (issue 16). The type keeps the
 * shape honest; `wire.test.ts` checks it against JSON.stringify.
 */
export function jsonFix(fix: CallerFix): string {
  const frame: CallerClientFrame = { event: 'fix', data: fix };
  // Only the generator's own shape is written by hand; anything more goes the long way.
  if (Object.keys(fix).length !== 4) return JSON.stringify(frame);
  return `{"event":"fix","data":{"latitude":${fix.latitude},"longitude":${fix.longitude},"accuracy":${fix.accuracy},"capturedAt":${fix.capturedAt}}}`;
}

/**
 * The event name of a `{"event":"…",…}` frame without parsing the whole of it (the servers
 * under test all write `event` first), or null for anything else.
 */
export function eventOf(text: string): string | null {
  if (!text.startsWith('{"event":"')) return null;
  const end = text.indexOf('"', 10);
  return end < 0 ? null : text.slice(10, end);
}

/** The JSON string value of `key` (first occurrence), or null. */
export function stringAfter(text: string, key: string): string | null {
  const marker = `"${key}":"`;
  const start = text.indexOf(marker);
  if (start < 0) return null;
  const from = start + marker.length;
  const end = text.indexOf('"', from);
  return end < 0 ? null : text.slice(from, end);
}

/** The JSON number value of `key` (first occurrence), or null. */
export function numberAfter(text: string, key: string): number | null {
  const marker = `"${key}":`;
  const start = text.indexOf(marker);
  if (start < 0) return null;
  const value = Number.parseFloat(text.slice(start + marker.length, start + marker.length + 24));
  return Number.isFinite(value) ? value : null;
}

const locus: Wire = {
  url: (role, port, s) => {
    const token = role === 'dispatcher' ? s.dispatcherToken : s.callerToken;
    return `${base(port)}${realtimePaths[role]}?token=${encodeURIComponent(token)}`;
  },
  hello: (role, s) =>
    role === 'dispatcher'
      ? [JSON.stringify({ event: 'join', data: { sessionId: s.sessionId } })]
      : [],
  readyOnOpen: (role) => role === 'caller',
  encodeFix: jsonFix,
  decode: (_role, text) => {
    // Trusted without zod, and read without parsing the whole frame: the caller's acks and the
    // dispatcher's fixes are most of what arrives, and JSON.parse of each is generator time.
    switch (eventOf(text) ?? (JSON.parse(text) as DispatcherServerFrame).event) {
      case 'joined':
        return { kind: 'ready' };
      case 'new-location-available': {
        // The server derives dateTimeCaptured from capturedAt, so the round trip is exact.
        const captured = stringAfter(text, 'dateTimeCaptured');
        return captured ? { kind: 'fix', capturedAt: Date.parse(captured) } : { kind: 'other' };
      }
      case 'error':
        return { kind: 'error', detail: text };
      default:
        return { kind: 'other' };
    }
  },
};

const reference: Wire = {
  url: (role, port, s) => `${base(port)}${realtimePaths[role]}?session=${s.sessionId}`,
  hello: () => [],
  readyOnOpen: (role) => role === 'caller',
  encodeFix: jsonFix,
  decode: (_role, text) => {
    const event = eventOf(text) ?? (JSON.parse(text) as { event: string }).event;
    if (event === 'joined') return { kind: 'ready' };
    const capturedAt = event === 'fix' ? numberAfter(text, 'capturedAt') : null;
    return capturedAt ? { kind: 'fix', capturedAt } : { kind: 'other' };
  },
};

/**
 * Socket.IO v5 over Engine.IO v4, websocket transport only, spoken directly over `ws`:
 * `0{…}` open, `40` namespace connect, `42[name,data]` event, `2`/`3` ping/pong. A real
 * socket.io-client per socket would cost the shared 2 cores far more than the relay under test.
 */
const peer: Wire = {
  url: (role, port, s) =>
    `${base(port)}/socket.io/?EIO=4&transport=websocket&role=${role}&session=${s.sessionId}`,
  hello: () => ['40'],
  readyOnOpen: () => false,
  encodeFix: (fix) => `42["fix",${jsonFix(fix).slice(22, -1)}]`,
  decode: (role, text) => {
    if (text === '2') return { kind: 'reply', frame: '3' };
    if (text.startsWith('40')) return role === 'caller' ? { kind: 'ready' } : { kind: 'other' };
    if (text.startsWith('44') || text.startsWith('41')) return { kind: 'error', detail: text };
    if (!text.startsWith('42')) return { kind: 'other' };
    if (text.startsWith('42["joined"')) return { kind: 'ready' };
    const capturedAt = text.startsWith('42["fix"') ? numberAfter(text, 'capturedAt') : null;
    return capturedAt ? { kind: 'fix', capturedAt } : { kind: 'other' };
  },
};

export const wires: Record<WireName, Wire> = { locus, reference, peer };
