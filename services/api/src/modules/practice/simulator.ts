import { closeCodes, realtimePaths, type CallerClientFrame } from '@locus/contract';
import type { FastifyBaseLogger } from 'fastify';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import WebSocket from 'ws';
import type { PracticeScript, PracticeStep } from './scripts';

/**
 * Practice mode (issue 14): scripted callers, played by the API instance that handled the
 * practice "text". Each one is a real client of this instance's caller socket
 * (`/api/v1/caller/socket`, with a link token issued for it like any caller's), so everything it
 * does goes through the pipeline unchanged: validation, sequencing, fan-out, persistence, chat.
 *
 * A scripted caller stops when its session ends (`session-ended`, close 4410), when its socket
 * closes for any other reason (it does not reconnect: practice is best effort), when the same
 * caller is scripted again, at `lingerMs` after its last step, or when the instance shuts down.
 */
export interface PracticeCallerOptions {
  log: FastifyBaseLogger;
  /** Time between two steps of a script, in ms (`PRACTICE_PACE_MS`). */
  paceMs: number;
  /** Where this instance listens (the HTTP server's address), or null before it listens. */
  address: () => AddressInfo | string | null;
  /** At most this many scripts run at once on an instance; beyond it the oldest is stopped. */
  maxRunning?: number;
  /** How long a caller stays connected (for the chat) after its last step. */
  lingerMs?: number;
}

export interface PracticeCallerStart {
  sessionId: string;
  callerId: string;
  /** The caller link token (never stored: only its hash is). */
  linkToken: string;
  script: PracticeScript;
}

const defaultMaxRunning = 200;
const defaultLingerMs = 10 * 60_000;

export class PracticeCallers {
  /** Running scripts by caller id, oldest first (a Map keeps insertion order). */
  private readonly running = new Map<string, ScriptedCaller>();
  private closed = false;

  constructor(private readonly options: PracticeCallerOptions) {}

  /** Starts a caller's script; one already running for that caller stops first. */
  start(input: PracticeCallerStart): void {
    if (this.closed) return;
    const url = this.socketUrl(input.linkToken);
    if (!url) {
      this.options.log.warn('practice caller not started: the API is not listening');
      return;
    }
    this.running.get(input.callerId)?.stop();
    const max = this.options.maxRunning ?? defaultMaxRunning;
    for (const [, oldest] of this.running) {
      if (this.running.size < max) break;
      oldest.stop();
    }
    const caller = new ScriptedCaller(url, input, this.options, () => {
      if (this.running.get(input.callerId) === caller) this.running.delete(input.callerId);
    });
    this.running.set(input.callerId, caller);
    caller.start();
  }

  /** How many scripts run now (tests, operators). */
  get size(): number {
    return this.running.size;
  }

  /** Stops every script (the instance is shutting down); nothing starts afterwards. */
  close(): void {
    this.closed = true;
    for (const caller of [...this.running.values()]) caller.stop();
  }

  private socketUrl(linkToken: string): string | null {
    const address = this.options.address();
    if (!address) return null;
    const path = `${realtimePaths.caller}?token=${encodeURIComponent(linkToken)}`;
    // A Unix socket (no port) is reached through ws+unix.
    if (typeof address === 'string') return `ws+unix://${address}:${path}`;
    const host =
      address.address === '0.0.0.0'
        ? '127.0.0.1'
        : address.address === '::'
          ? '[::1]'
          : address.family === 'IPv6'
            ? `[${address.address}]`
            : address.address;
    return `ws://${host}:${address.port}${path}`;
  }
}

/** What a scripted caller reads from its socket (only what it acts on). */
interface ServerFrame {
  event: string;
  data?: { callerId?: string; from?: string };
}

class ScriptedCaller {
  private ws: WebSocket | null = null;
  private readonly timers = new Set<ReturnType<typeof setTimeout>>();
  private stopped = false;
  private fixNumber = 0;
  private repliesSent = 0;
  private chatOpen = false;

  constructor(
    private readonly url: string,
    private readonly input: PracticeCallerStart,
    private readonly options: PracticeCallerOptions,
    private readonly onStopped: () => void,
  ) {}

  start(): void {
    const ws = new WebSocket(this.url);
    this.ws = ws;
    ws.on('open', () => {
      // As the page does after every connect: this caller's chat, from the start.
      this.send({ event: 'chat-join', data: { lastSeq: 0 } });
      this.play(0);
    });
    ws.on('message', (data) => this.receive(data.toString()));
    ws.on('close', (code) => {
      if (code !== closeCodes.sessionEnded && !this.stopped)
        this.options.log.info(
          { sessionId: this.input.sessionId, code },
          'practice caller disconnected',
        );
      this.stop();
    });
    ws.on('error', (error) => {
      this.options.log.warn({ err: error, sessionId: this.input.sessionId }, 'practice caller');
    });
  }

  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    const ws = this.ws;
    if (ws && (ws.readyState === WebSocket.OPEN || ws.readyState === WebSocket.CONNECTING))
      ws.close(closeCodes.goingAway);
    this.onStopped();
  }

  /** Runs step `index` after its pause, then the next; after the last, lingers for the chat. */
  private play(index: number): void {
    const { steps } = this.input.script;
    const step = steps[index];
    if (!step) {
      this.later(this.options.lingerMs ?? defaultLingerMs, () => this.stop());
      return;
    }
    this.later(step.after * this.options.paceMs, () => {
      this.perform(step);
      this.play(index + 1);
    });
  }

  private perform(step: PracticeStep): void {
    switch (step.send) {
      case 'device':
        this.send({
          event: 'device',
          data: {
            battery: { level: 0.64, charging: false },
            network: { type: 'cellular', effectiveType: '4g' },
            visibility: 'visible',
            hiddenForMs: null,
            permission: step.permission,
          },
        });
        return;
      case 'sharing':
        this.send({ event: 'sharing', data: { sharing: step.sharing } });
        return;
      case 'prompt-shown':
        this.send({ event: 'prompt-shown', data: {} });
        return;
      case 'sharing-error':
        this.send({ event: 'sharing-error', data: { code: step.code, message: step.message } });
        return;
      case 'fix': {
        const point = this.input.script.route[step.point];
        if (!point) return;
        this.fixNumber += 1;
        this.send({
          event: 'fix',
          data: {
            latitude: point[0],
            longitude: point[1],
            accuracy: step.accuracy,
            altitude: null,
            capturedAt: Date.now(),
            n: this.fixNumber,
          },
        });
        return;
      }
      case 'nothing':
        return;
    }
  }

  private receive(text: string): void {
    let frame: ServerFrame;
    try {
      frame = JSON.parse(text) as ServerFrame;
    } catch {
      return;
    }
    if (frame.event === 'session-ended') {
      this.stop();
      return;
    }
    // The caller's own chat events only (the server sends no other caller's).
    if (frame.data?.callerId !== this.input.callerId) return;
    if (frame.event === 'chat-opened' && !this.chatOpen) {
      this.chatOpen = true;
      this.replySoon();
    } else if (frame.event === 'chat-message' && frame.data.from === 'dispatcher') {
      this.replySoon();
    }
  }

  /** The next line of the script's chat, a pace later (someone typing on a phone). */
  private replySoon(): void {
    const text = this.input.script.chatReplies[this.repliesSent];
    if (text === undefined) return;
    this.repliesSent += 1;
    this.later(this.options.paceMs, () =>
      this.send({ event: 'chat', data: { clientId: randomUUID(), text } }),
    );
  }

  private later(ms: number, run: () => void): void {
    if (this.stopped) return;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      if (!this.stopped) run();
    }, ms);
    // A practice script never keeps the process alive by itself.
    timer.unref();
    this.timers.add(timer);
  }

  private send(frame: CallerClientFrame): void {
    if (this.ws?.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(frame));
  }
}
