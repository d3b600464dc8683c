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

/** Same JSON frames as Locus; the relay forwards the caller's bytes unchanged. */
function jsonFix(fix: CallerFix): string {
  const frame: CallerClientFrame = { event: 'fix', data: fix };
  return JSON.stringify(frame);
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
    // Trusted without zod: validating here would add generator time to every latency sample.
    const frame = JSON.parse(text) as DispatcherServerFrame;
    switch (frame.event) {
      case 'joined':
        return { kind: 'ready' };
      case 'new-location-available':
        // The server derives dateTimeCaptured from capturedAt, so the round trip is exact.
        return { kind: 'fix', capturedAt: Date.parse(frame.data.dateTimeCaptured) };
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
    const frame = JSON.parse(text) as { event: string; data: { capturedAt?: number } };
    if (frame.event === 'joined') return { kind: 'ready' };
    if (frame.event === 'fix' && frame.data.capturedAt) {
      return { kind: 'fix', capturedAt: frame.data.capturedAt };
    }
    return { kind: 'other' };
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
  encodeFix: (fix) => `42${JSON.stringify(['fix', fix])}`,
  decode: (role, text) => {
    if (text === '2') return { kind: 'reply', frame: '3' };
    if (text.startsWith('40')) return role === 'caller' ? { kind: 'ready' } : { kind: 'other' };
    if (text.startsWith('44') || text.startsWith('41')) return { kind: 'error', detail: text };
    if (!text.startsWith('42')) return { kind: 'other' };
    const [name, data] = JSON.parse(text.slice(2)) as [string, { capturedAt?: number }];
    if (name === 'joined') return { kind: 'ready' };
    if (name === 'fix' && data.capturedAt) return { kind: 'fix', capturedAt: data.capturedAt };
    return { kind: 'other' };
  },
};

export const wires: Record<WireName, Wire> = { locus, reference, peer };
