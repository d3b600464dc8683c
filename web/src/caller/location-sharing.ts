import { callerTextsVersion, type CallerFix } from '@locus/contract/caller';
import {
  CallerSocket,
  callerSocketUrl,
  type CallerChatHooks,
  type ConnectionState,
  type ConsentData,
  type CallerMediaHooks,
  type MediaClientFrame,
} from './caller-socket';
import { DeviceStatus } from './device-status';
import type { FixQueue } from './fix-queue';
import { toCallerFix, watchOptions } from './position-fix';
import { ScreenWakeLock } from './screen-wake-lock';
import { sharingMemory } from './sharing-memory';

/**
 * - idle: nothing asked, nothing sent (before the caller taps Share).
 * - starting: watching, no fix yet (the phone may be asking for permission).
 * - sharing: at least one fix since the last start.
 * - stopped: the caller tapped Stop sharing.
 * - denied: location access was refused.
 * - unsupported: this browser has no location to give.
 * - ended: the dispatcher ended the request.
 * - revoked: the server refused the link; ask the API what happened to it.
 */
export type SharingPhase =
  'idle' | 'starting' | 'sharing' | 'stopped' | 'denied' | 'unsupported' | 'ended' | 'revoked';

/** A passing problem while the watch keeps running. */
export type PositionProblem = 'position-unavailable' | 'timeout';

/** A position the phone gave, as the caller's page shows it and texts it. */
export interface ShownFix {
  latitude: number;
  longitude: number;
  /** Metres. */
  accuracy: number;
  /** Epoch milliseconds. */
  capturedAt: number;
}

export interface SharingState {
  phase: SharingPhase;
  connection: ConnectionState;
  /** The newest position since the last start. */
  lastFix: ShownFix | null;
  problem: PositionProblem | null;
  /** Fixes kept on the phone that the server has not acknowledged yet. */
  queued: number;
  /**
   * Since when (the page's monotonic clock, `performance.now()`) the oldest fix the server has
   * not taken has waited; null when it has taken them all. See `CallerSocket.unackedSince`.
   */
  unackedSince: number | null;
  /** Technical notes for the debug panel (a fix the server refused, …), newest last. */
  notes: string[];
}

const MAX_NOTES = 20;

// GeolocationPositionError codes.
const permissionDenied = 1;
const timeout = 3;

/** What the dispatcher's log learns (in English: it is the dispatcher's screen, not the caller's). */
const errorMessages = {
  'permission-denied': "The caller's phone blocked location access.",
  'position-unavailable': "The caller's phone cannot determine its location.",
  timeout: "The caller's phone is taking too long to find its location.",
  unsupported: "The caller's browser cannot share its location.",
} as const;

function describe(code: keyof typeof errorMessages, detail?: string): string {
  return detail ? `${errorMessages[code]} (${detail})` : errorMessages[code];
}

/**
 * One caller's sharing: the geolocation watch, the socket, the phone's status reports and the
 * screen wake lock, started only by the caller's tap (or, after a reload, by the tap the caller
 * made before it). Every fix goes through the queue, which outlives the page. Framework-free;
 * `useLocationSharing` binds it to the view.
 */
export class LocationSharing {
  private state: SharingState;
  private readonly listeners = new Set<() => void>();
  private readonly wakeLock = new ScreenWakeLock();
  private readonly device = new DeviceStatus((report) => this.socket?.sendDevice(report));
  private socket: CallerSocket | null = null;
  private chat: CallerChatHooks | null = null;
  private media: CallerMediaHooks | null = null;
  private watchId: number | null = null;
  private lastCapturedAt: number;
  private listening = false;
  private gone = false;

  constructor(
    private readonly token: string,
    private readonly queue: FixQueue,
  ) {
    this.lastCapturedAt = queue.newestCapturedAt;
    this.state = {
      phase: 'idle',
      connection: 'closed',
      lastFix: null,
      problem: null,
      queued: queue.size,
      unackedSince: null,
      notes: [],
    };
  }

  /**
   * When the page opens: fixes an earlier page on this phone could not send go out now (the
   * caller agreed to share them), and a caller who was sharing when the page went away (a
   * reload, a killed tab) goes on sharing without being asked again.
   */
  readonly resume = (): void => {
    if (sharingMemory.wasSharing(this.token)) this.start();
    // The socket opens with the page, not with consent: it carries the chat too, which works
    // whether or not the caller shares. No position is taken or sent before the caller's tap.
    else if (!this.gone && !this.isOver()) {
      this.listen();
      this.openSocket();
    }
    void this.queue.ready.then(() => {
      if (this.gone) return;
      this.update({ queued: this.queue.size, unackedSince: this.unackedSince() });
      if (this.socket) this.socket.flushQueued();
      else if (this.queue.size > 0 && !this.isOver()) {
        this.listen();
        this.openSocket();
      }
    });
  };

  /** See {@link SharingState.unackedSince}. */
  private unackedSince(): number | null {
    return this.socket ? this.socket.unackedSince : this.queue.oldestSince;
  }

  private isOver(): boolean {
    return this.state.phase === 'ended' || this.state.phase === 'revoked';
  }

  readonly getState = (): SharingState => this.state;

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /**
   * The caller's tap on Share (or Try again, Share again): ask the phone, open the socket. A tap
   * is a consent: the server keeps a receipt of what that screen said. A page resuming a share
   * the caller agreed to before a reload passes none.
   */
  readonly start = (consent?: Omit<ConsentData, 'tappedAt' | 'textsVersion'>): void => {
    if (this.gone || this.isOver()) return;
    this.clearWatch();
    this.listen();
    const socket = this.openSocket();
    if (consent)
      socket.consent({ ...consent, textsVersion: callerTextsVersion, tappedAt: Date.now() });
    if (!window.isSecureContext || !('geolocation' in navigator)) {
      socket.reportError('unsupported', describe('unsupported'));
      this.update({ phase: 'unsupported', problem: null });
      return;
    }
    socket.setSharing(true);
    sharingMemory.remember(this.token, true);
    void this.queue.ready.then(() => this.socket?.flushQueued());
    this.device.start();
    // A new watch may begin with the position the last one ended on: show it, send it again
    // (unless it is still queued: the server would drop it as a repeat anyway).
    this.lastCapturedAt = this.queue.newestCapturedAt;
    this.update({
      phase: 'starting',
      lastFix: null,
      problem: null,
      unackedSince: this.unackedSince(),
    });
    this.wakeLock.acquire();
    // Before the browser is asked (and may show its permission prompt): the metrics' link funnel.
    socket.promptShown();
    this.watchId = navigator.geolocation.watchPosition(
      this.onPosition,
      this.onPositionError,
      watchOptions,
    );
  };

  /**
   * The caller's tap on Stop sharing: the watch ends and the dispatcher is told. The socket stays
   * open for the chat; it sends no position until the caller shares again.
   */
  readonly stop = (): void => {
    this.socket?.setSharing(false);
    sharingMemory.remember(this.token, false);
    this.clearWatch();
    this.wakeLock.release();
    this.device.stop();
    this.update({ phase: 'stopped', lastFix: null, problem: null });
  };

  /** The chat rides on this socket (see caller-chat.ts). */
  readonly attachChat = (hooks: CallerChatHooks): void => {
    this.chat = hooks;
    this.socket?.attachChat(hooks);
  };

  readonly sendChat = (clientId: string, text: string): boolean =>
    this.socket?.sendChat(clientId, text) ?? false;

  /** Video and photos ride on this socket too (issue 19, media/caller-media.ts). */
  readonly attachMedia = (hooks: CallerMediaHooks): void => {
    this.media = hooks;
    this.socket?.attachMedia(hooks);
  };

  readonly sendMedia = (frame: MediaClientFrame): boolean => this.socket?.sendMedia(frame) ?? false;

  /** The page (the view) is going away: stop everything, and start nothing ever again. */
  readonly destroy = (): void => {
    this.gone = true;
    this.dispose();
  };

  /** Stops everything without a word. */
  readonly dispose = (): void => {
    this.clearWatch();
    this.wakeLock.release();
    this.device.stop();
    this.socket?.close();
    this.socket = null;
    this.unlisten();
  };

  private openSocket(): CallerSocket {
    if (this.socket) return this.socket;
    const socket = new CallerSocket(
      callerSocketUrl(this.token),
      this.queue,
      {
        onConnection: (connection) => {
          if (connection === 'connected' && this.device.isRunning) {
            socket.sendDevice(this.device.current());
          }
          this.update({ connection });
        },
        onEnded: () => this.finish('ended'),
        onRevoked: () => this.finish('revoked'),
        onQueue: (queued) => {
          const unackedSince = socket.unackedSince;
          if (queued !== this.state.queued || unackedSince !== this.state.unackedSince) {
            this.update({ queued, unackedSince });
          }
        },
        onRefused: (fix, reason) => this.note(refusedNote(fix, reason)),
      },
      () => document.visibilityState === 'visible',
    );
    this.socket = socket;
    if (this.chat) socket.attachChat(this.chat);
    if (this.media) socket.attachMedia(this.media);
    socket.connect();
    return socket;
  }

  private finish(phase: 'ended' | 'revoked'): void {
    sharingMemory.remember(this.token, false);
    this.dispose();
    this.update({ phase, problem: null });
  }

  private readonly onPosition = (position: GeolocationPosition): void => {
    if (this.watchId === null) return;
    const fix = toCallerFix(position);
    // A watch may repeat a position; the server would drop it anyway.
    if (fix.capturedAt <= this.lastCapturedAt) return;
    this.lastCapturedAt = fix.capturedAt;
    this.socket?.sendFix(fix);
    const { latitude, longitude, accuracy, capturedAt } = fix;
    this.update({
      phase: 'sharing',
      lastFix: { latitude, longitude, accuracy, capturedAt },
      problem: null,
    });
  };

  private readonly onPositionError = (error: GeolocationPositionError): void => {
    if (this.watchId === null) return;
    if (error.code === permissionDenied) {
      this.clearWatch();
      this.wakeLock.release();
      // Sharing off first, then why: the dispatcher's newest word is the reason, not "stopped".
      this.socket?.setSharing(false);
      this.socket?.reportError('permission-denied', describe('permission-denied', error.message));
      this.update({ phase: 'denied', problem: null });
      return;
    }
    // The watch keeps running: the phone may still find itself. Told once per problem.
    const problem: PositionProblem = error.code === timeout ? 'timeout' : 'position-unavailable';
    if (this.state.problem !== problem) {
      this.socket?.reportError(problem, describe(problem, error.message));
      this.update({ problem });
    }
  };

  private readonly onVisibility = (): void => {
    this.socket?.sendFocus();
    if (document.visibilityState !== 'visible') return;
    this.socket?.reconnectNow();
    if (this.state.phase === 'starting' || this.state.phase === 'sharing') this.wakeLock.acquire();
  };

  private readonly onOnline = (): void => this.socket?.reconnectNow();
  private readonly onOffline = (): void => this.socket?.networkLost();

  private listen(): void {
    if (this.listening) return;
    this.listening = true;
    document.addEventListener('visibilitychange', this.onVisibility);
    window.addEventListener('online', this.onOnline);
    window.addEventListener('offline', this.onOffline);
  }

  private unlisten(): void {
    if (!this.listening) return;
    this.listening = false;
    document.removeEventListener('visibilitychange', this.onVisibility);
    window.removeEventListener('online', this.onOnline);
    window.removeEventListener('offline', this.onOffline);
  }

  private clearWatch(): void {
    if (this.watchId !== null) navigator.geolocation.clearWatch(this.watchId);
    this.watchId = null;
  }

  private note(text: string): void {
    this.update({ notes: [...this.state.notes, text].slice(-MAX_NOTES) });
  }

  private update(patch: Partial<SharingState>): void {
    this.state = { ...this.state, ...patch };
    for (const listener of this.listeners) listener();
  }
}

function refusedNote(fix: CallerFix | undefined, reason: string): string {
  const when = fix ? new Date(fix.capturedAt).toISOString() : 'unknown time';
  return `Position from ${when} refused by the server and dropped: ${reason}`;
}
