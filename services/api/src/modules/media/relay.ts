import { mediaLimits, type IceServer, type MediaKind } from '@locus/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import { randomBytes } from 'node:crypto';
import type { Fanout } from '../realtime/fanout';
import { frame } from '../realtime/frames';
import { iceServersFor, type IceConfig } from './ice-servers';

/** A caller socket on this instance, as the relay hands it frames. */
export interface CallerPeer {
  sessionId: string;
  callerId: string;
  send(frameText: string): void;
}

/** A dispatcher socket on this instance watching one caller's video as `viewerId`. */
export interface ViewerPeer {
  sessionId: string;
  callerId: string;
  viewerId: string;
  send(frameText: string): void;
}

/** A request the caller has not answered yet. */
export interface OpenRequest {
  requestId: string;
  kind: MediaKind;
  audio: boolean;
}

export type VideoState = 'started' | 'stills';

/** What a report of the caller's video leads to (see REPORT_VIDEO_SCRIPT). */
export type VideoReportOutcome = 'announce' | 'quiet' | 'stop-page';

export interface VideoReport {
  state: VideoState | 'stopped';
  /** The camera opening it is about; '' when the page named none. */
  videoId: string;
  /** Said again after the page's socket (re)opened. */
  resent: boolean;
}

/**
 * An unanswered request waits this long for a caller who is offline or reloading; after that
 * the dispatcher asks again (a request is never repeated by itself).
 */
export const openRequestSeconds = 10 * 60;
/**
 * A viewer's entry lives this long unless its instance renews it (every third of it): an
 * instance that dies does not keep its viewers' places for longer.
 */
export const viewerLeaseMs = 60_000;
/** The running-video hash outlives any session's last event by far. */
const videoStateSeconds = 24 * 3600;

// Redis's clock in every script: instances' clocks do not matter.
const NOW = `local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)`;

/**
 * A place among the caller's viewers: only while the caller's video runs (KEYS[2], by caller),
 * at most ARGV[2] live ones (entries not renewed within the lease are dropped first). ARGV[4]:
 * the socket's previous viewer id for this caller, replaced. -1: no video; 0: full; 1: taken.
 */
const WATCH_SCRIPT = `${NOW}
if not redis.call('HGET', KEYS[2], ARGV[5]) then return -1 end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - tonumber(ARGV[3]))
if ARGV[4] ~= '' then redis.call('ZREM', KEYS[1], ARGV[4]) end
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], now, ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1
`;

/** Renews a viewer still listed; one dropped (video stopped, lease lost) is not put back. */
const RENEW_SCRIPT = `${NOW}
if not redis.call('ZSCORE', KEYS[1], ARGV[1]) then return 0 end
redis.call('ZADD', KEYS[1], now, ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1
`;

/**
 * Publishes ARGV[4] only if ARGV[1] is a live viewer of exactly this caller of this session
 * (KEYS[1]): the check and the publish in one step, so a signal never reaches a viewer that
 * left, and a viewer id of another session is never found here.
 */
const RELAY_SCRIPT = `${NOW}
local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not score or tonumber(score) < now - tonumber(ARGV[2]) then return 0 end
redis.call('PUBLISH', ARGV[3], ARGV[4])
return 1
`;

/** Takes the open request if it is the one answered (compare and delete). */
const TAKE_REQUEST_SCRIPT = `
local open = redis.call('GET', KEYS[1])
if not open then return false end
if cjson.decode(open).requestId ~= ARGV[1] then return false end
redis.call('DEL', KEYS[1])
return open
`;

/**
 * A report of the caller's video (ARGV[1]): state ARGV[2] of the camera opening ARGV[3] ('' for
 * none named), said again after a reconnect when ARGV[4] is '1'. KEYS[1]: the running videos
 * (`<state>|<videoId>` by caller), KEYS[2]: the caller's viewers, KEYS[3]: the last video
 * stopped, by caller. Returns { what to do, the running entry it replaced or '', the one it wrote
 * or '' }: `announce`,
 * `quiet` (not news: the same state again, a stop of a video not running, another video's
 * report), or `stop-page` (that video was stopped while the page was away: tell it to stop).
 * One step, so of two reports of the same change only one finds it new.
 */
const REPORT_VIDEO_SCRIPT = `
local running = redis.call('HGET', KEYS[1], ARGV[1])
local runState, runId = nil, nil
if running then
  local bar = string.find(running, '|', 1, true)
  if bar then
    runState = string.sub(running, 1, bar - 1)
    runId = string.sub(running, bar + 1)
  else
    runState = running
    runId = ''
  end
end
local state, id, resent = ARGV[2], ARGV[3], ARGV[4] == '1'
local previous = running or ''
if state == 'stopped' then
  if not running then return {'quiet', previous, ''} end
  if id ~= '' and runId ~= '' and id ~= runId then return {'quiet', previous, ''} end
  redis.call('HDEL', KEYS[1], ARGV[1])
  redis.call('DEL', KEYS[2])
  redis.call('HSET', KEYS[3], ARGV[1], runId)
  redis.call('EXPIRE', KEYS[3], ARGV[5])
  return {'announce', previous, ''}
end
local function run()
  local entry = state .. '|' .. id
  redis.call('HSET', KEYS[1], ARGV[1], entry)
  redis.call('EXPIRE', KEYS[1], ARGV[5])
  return {'announce', previous, entry}
end
-- A camera opened: always news (dashboards watch it anew).
if state == 'started' and not resent then return run() end
if running and runId == id then
  if runState == state then return {'quiet', previous, ''} end
  return run()
end
if id ~= '' and redis.call('HGET', KEYS[3], ARGV[1]) == id then return {'stop-page', previous, ''} end
if running then return {'quiet', previous, ''} end
return run()
`;

/**
 * Takes back a report whose event failed, unless something changed the caller's entry since:
 * a start (ARGV[2], the entry it wrote) is removed if still there (the page says it again, and
 * it is news then); a stop (ARGV[2] '') puts back the entry it removed (ARGV[3]) if none was set
 * since, so that the page's stop, said again, is news too.
 */
const RESTORE_VIDEO_SCRIPT = `
local now = redis.call('HGET', KEYS[1], ARGV[1])
if ARGV[2] == '' then
  if not now and ARGV[3] ~= '' then
    redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
    redis.call('EXPIRE', KEYS[1], ARGV[4])
  end
elseif now == ARGV[2] then
  redis.call('HDEL', KEYS[1], ARGV[1])
end
return 1
`;

/** Takes the whole running-video hash: only one instance gets it when a session ends. */
const TAKE_VIDEO_SCRIPT = `
local all = redis.call('HGETALL', KEYS[1])
redis.call('DEL', KEYS[1])
return all
`;

type MediaRedis = Redis & {
  locusMediaWatch(
    viewers: string,
    video: string,
    viewerId: string,
    max: number,
    leaseMs: number,
    previous: string,
    callerId: string,
  ): Promise<number>;
  locusMediaRenew(viewers: string, viewerId: string, leaseMs: number): Promise<number>;
  locusMediaRelay(
    viewers: string,
    viewerId: string,
    leaseMs: number,
    channel: string,
    message: string,
  ): Promise<number>;
  locusMediaTakeRequest(key: string, requestId: string): Promise<string | null>;
  locusMediaTakeVideo(key: string): Promise<string[]>;
  locusMediaReportVideo(
    video: string,
    viewers: string,
    stopped: string,
    callerId: string,
    state: string,
    videoId: string,
    resent: string,
    seconds: number,
  ): Promise<[VideoReportOutcome, string, string]>;
  locusMediaRestoreVideo(
    video: string,
    callerId: string,
    wrote: string,
    previous: string,
    seconds: number,
  ): Promise<number>;
};

/** What crosses instances on the media channel: a frame for a caller's or a viewer's socket. */
type Envelope =
  | { to: 'caller'; sessionId: string; callerId: string; frame: string }
  | { to: 'viewer'; sessionId: string; callerId: string; viewerId: string; frame: string };

/**
 * Media signalling between instances (issue 19). Callers and dispatchers are usually on
 * different instances, so every frame from one side to the other goes through Redis: one
 * channel all instances listen to (`control:media`), each keeping what is for its own sockets.
 * Signalling is a few dozen frames per video start and rate-limited per socket, so every
 * instance reading every frame is cheap at the handful of instances Locus runs; beyond that it
 * would be one channel per session, subscribed while a socket of it is here (as fanout.ts
 * does for sequenced events).
 *
 * What must survive an instance is in Redis: the caller's open request (a reconnecting caller
 * gets it again), which callers' video runs, and each caller's viewers with a lease.
 */
export class MediaRelay {
  private readonly redis: MediaRedis;
  private readonly callers = new Map<string, Set<CallerPeer>>();
  private readonly viewers = new Map<string, ViewerPeer>();
  private renewTimer: NodeJS.Timeout | undefined;
  readonly channel: string;

  constructor(
    redis: Redis,
    private readonly prefix: string,
    private readonly ice: IceConfig,
    private readonly log: FastifyBaseLogger,
  ) {
    redis.defineCommand('locusMediaWatch', { numberOfKeys: 2, lua: WATCH_SCRIPT });
    redis.defineCommand('locusMediaRenew', { numberOfKeys: 1, lua: RENEW_SCRIPT });
    redis.defineCommand('locusMediaRelay', { numberOfKeys: 1, lua: RELAY_SCRIPT });
    redis.defineCommand('locusMediaTakeRequest', { numberOfKeys: 1, lua: TAKE_REQUEST_SCRIPT });
    redis.defineCommand('locusMediaTakeVideo', { numberOfKeys: 1, lua: TAKE_VIDEO_SCRIPT });
    redis.defineCommand('locusMediaReportVideo', { numberOfKeys: 3, lua: REPORT_VIDEO_SCRIPT });
    redis.defineCommand('locusMediaRestoreVideo', { numberOfKeys: 1, lua: RESTORE_VIDEO_SCRIPT });
    this.redis = redis as MediaRedis;
    this.channel = `${prefix}control:media`;
  }

  // The {sessionId} hash tag keeps a session's media keys in one Redis Cluster slot.
  private requestKey = (sessionId: string, callerId: string) =>
    `${this.prefix}media:{${sessionId}}:request:${callerId}`;
  private videoKey = (sessionId: string) => `${this.prefix}media:{${sessionId}}:video`;
  private stoppedKey = (sessionId: string) => `${this.prefix}media:{${sessionId}}:stopped`;
  private viewersKey = (sessionId: string, callerId: string) =>
    `${this.prefix}media:{${sessionId}}:viewers:${callerId}`;

  async start(fanout: Fanout): Promise<void> {
    await fanout.control(
      this.channel,
      (message) => this.receive(message),
      // A request published while the subscription was down never arrived: hand every caller
      // here its open request again (the page ignores a request id it already shows).
      () => {
        for (const peers of this.callers.values())
          for (const peer of peers) void this.resendOpenRequest(peer);
      },
    );
    this.renewTimer = setInterval(() => void this.renewViewers(), viewerLeaseMs / 3);
    this.renewTimer.unref();
  }

  stop(): void {
    clearInterval(this.renewTimer);
  }

  iceServers(sessionId: string): IceServer[] {
    return iceServersFor(this.ice, sessionId);
  }

  private receive(message: string): void {
    let envelope: Envelope;
    try {
      envelope = JSON.parse(message) as Envelope;
    } catch {
      return;
    }
    // Valid JSON that is not an envelope (`null`) would throw below, inside the Redis client's
    // message event, where nothing catches it.
    if (typeof envelope !== 'object' || envelope === null) return;
    if (envelope.to === 'caller') {
      for (const peer of this.callers.get(`${envelope.sessionId}:${envelope.callerId}`) ?? [])
        peer.send(envelope.frame);
      return;
    }
    const viewer = this.viewers.get(envelope.viewerId);
    // The viewer id is unguessable, and the session and caller must match as well.
    if (viewer && viewer.sessionId === envelope.sessionId && viewer.callerId === envelope.callerId)
      viewer.send(envelope.frame);
  }

  // --- Callers

  /** A caller socket opened: it receives frames from now on, and its open request, if any. */
  addCaller(peer: CallerPeer): void {
    const key = `${peer.sessionId}:${peer.callerId}`;
    let peers = this.callers.get(key);
    if (!peers) {
      peers = new Set();
      this.callers.set(key, peers);
    }
    peers.add(peer);
    void this.resendOpenRequest(peer);
  }

  removeCaller(peer: CallerPeer): void {
    const key = `${peer.sessionId}:${peer.callerId}`;
    const peers = this.callers.get(key);
    if (!peers) return;
    peers.delete(peer);
    if (peers.size === 0) this.callers.delete(key);
  }

  private async resendOpenRequest(peer: CallerPeer): Promise<void> {
    try {
      const open = await this.redis.get(this.requestKey(peer.sessionId, peer.callerId));
      if (!open) return;
      peer.send(this.requestFrame(peer.sessionId, JSON.parse(open) as OpenRequest));
    } catch (error) {
      this.log.warn({ err: error }, 'could not read a caller’s open media request');
    }
  }

  private requestFrame(sessionId: string, request: OpenRequest): string {
    // TURN credentials only for video: a photo needs no peer connection.
    const iceServers = request.kind === 'video' ? this.iceServers(sessionId) : [];
    return frame('media-request', { ...request, iceServers });
  }

  /** Keeps the request open (replacing an earlier one) and hands it to the caller's sockets. */
  async request(sessionId: string, callerId: string, request: OpenRequest): Promise<void> {
    await this.redis.set(
      this.requestKey(sessionId, callerId),
      JSON.stringify(request),
      'EX',
      openRequestSeconds,
    );
    await this.toCaller(sessionId, callerId, this.requestFrame(sessionId, request));
  }

  /** The open request if `requestId` is it (then it is no longer open), else undefined. */
  async takeRequest(
    sessionId: string,
    callerId: string,
    requestId: string,
  ): Promise<OpenRequest | undefined> {
    const open = await this.redis.locusMediaTakeRequest(
      this.requestKey(sessionId, callerId),
      requestId,
    );
    return open ? (JSON.parse(open) as OpenRequest) : undefined;
  }

  /** Puts back a request taken for an answer that could not be published (unless replaced). */
  async restoreRequest(sessionId: string, callerId: string, request: OpenRequest): Promise<void> {
    await this.redis.set(
      this.requestKey(sessionId, callerId),
      JSON.stringify(request),
      'EX',
      openRequestSeconds,
      'NX',
    );
  }

  async toCaller(sessionId: string, callerId: string, frameText: string): Promise<void> {
    const envelope: Envelope = { to: 'caller', sessionId, callerId, frame: frameText };
    await this.redis.publish(this.channel, JSON.stringify(envelope));
  }

  // --- Video

  /**
   * A report of the caller's video, stored (a stop drops its viewers) if it is news; see
   * REPORT_VIDEO_SCRIPT. `undo` puts back what it replaced, for an event that failed.
   */
  async reportVideo(
    sessionId: string,
    callerId: string,
    report: VideoReport,
  ): Promise<{ outcome: VideoReportOutcome; undo: () => Promise<void> }> {
    const video = this.videoKey(sessionId);
    const [outcome, previous, wrote] = await this.redis.locusMediaReportVideo(
      video,
      this.viewersKey(sessionId, callerId),
      this.stoppedKey(sessionId),
      callerId,
      report.state,
      report.videoId,
      report.resent ? '1' : '0',
      videoStateSeconds,
    );
    const undo = async () => {
      await this.redis.locusMediaRestoreVideo(video, callerId, wrote, previous, videoStateSeconds);
    };
    return { outcome, undo };
  }

  /** A dispatcher stops the caller's video: every viewer goes, and the caller's page is told. */
  async stopVideo(sessionId: string, callerId: string): Promise<void> {
    await this.reportVideo(sessionId, callerId, { state: 'stopped', videoId: '', resent: false });
    await this.toCaller(sessionId, callerId, frame('video-stop', {}));
  }

  /** The callers whose video ran when the session ended; taken by one instance only. */
  async takeRunningVideo(sessionId: string): Promise<string[]> {
    const all = await this.redis.locusMediaTakeVideo(this.videoKey(sessionId));
    const callerIds = all.filter((_, index) => index % 2 === 0);
    if (callerIds.length > 0)
      await this.redis.del(...callerIds.map((callerId) => this.viewersKey(sessionId, callerId)));
    return callerIds;
  }

  /**
   * A place among the caller's viewers for a dispatcher socket on this instance, replacing its
   * previous one for that caller. The caller's page is told to make an offer to it.
   */
  async watch(
    sessionId: string,
    callerId: string,
    send: (frameText: string) => void,
    previousViewerId: string | undefined,
  ): Promise<{ viewerId: string } | 'not-running' | 'full'> {
    const viewerId = `v-${randomBytes(12).toString('base64url')}`;
    const taken = await this.redis.locusMediaWatch(
      this.viewersKey(sessionId, callerId),
      this.videoKey(sessionId),
      viewerId,
      mediaLimits.maxVideoViewers,
      viewerLeaseMs,
      previousViewerId ?? '',
      callerId,
    );
    if (taken === -1) return 'not-running';
    if (previousViewerId) await this.left(sessionId, callerId, previousViewerId);
    if (taken === 0) return 'full';
    this.viewers.set(viewerId, { sessionId, callerId, viewerId, send });
    return { viewerId };
  }

  /** The viewer's socket closed (or it watches anew): the caller's page closes that connection. */
  async unwatch(sessionId: string, callerId: string, viewerId: string): Promise<void> {
    // Forgotten here first: should Redis fail now, no renewal keeps the place taken (its lease
    // then runs out within a minute).
    this.viewers.delete(viewerId);
    await this.redis.zrem(this.viewersKey(sessionId, callerId), viewerId);
    await this.left(sessionId, callerId, viewerId);
  }

  private async left(sessionId: string, callerId: string, viewerId: string): Promise<void> {
    this.viewers.delete(viewerId);
    await this.toCaller(sessionId, callerId, frame('video-viewer-left', { viewerId }));
  }

  /** A frame from the caller to one of its viewers; false when that is not a viewer of it. */
  async callerToViewer(
    sessionId: string,
    callerId: string,
    viewerId: string,
    frameText: string,
  ): Promise<boolean> {
    const envelope: Envelope = { to: 'viewer', sessionId, callerId, viewerId, frame: frameText };
    return this.checkedPublish(sessionId, callerId, viewerId, envelope);
  }

  /** A frame from a viewer to its caller; false when it is no longer that caller's viewer. */
  async viewerToCaller(
    sessionId: string,
    callerId: string,
    viewerId: string,
    frameText: string,
  ): Promise<boolean> {
    const envelope: Envelope = { to: 'caller', sessionId, callerId, frame: frameText };
    return this.checkedPublish(sessionId, callerId, viewerId, envelope);
  }

  private async checkedPublish(
    sessionId: string,
    callerId: string,
    viewerId: string,
    envelope: Envelope,
  ): Promise<boolean> {
    const published = await this.redis.locusMediaRelay(
      this.viewersKey(sessionId, callerId),
      viewerId,
      viewerLeaseMs,
      this.channel,
      JSON.stringify(envelope),
    );
    return published === 1;
  }

  private async renewViewers(): Promise<void> {
    const viewers = [...this.viewers.values()];
    if (viewers.length === 0) return;
    try {
      await Promise.all(
        viewers.map((viewer) =>
          this.redis.locusMediaRenew(
            this.viewersKey(viewer.sessionId, viewer.callerId),
            viewer.viewerId,
            viewerLeaseMs,
          ),
        ),
      );
    } catch (error) {
      this.log.warn({ err: error }, 'could not renew the video viewers’ leases');
    }
  }
}
