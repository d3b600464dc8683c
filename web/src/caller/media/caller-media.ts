import type { MediaAnswer } from '@locus/contract';
import type { MediaClientFrame, MediaServerFrame } from '../caller-socket';
import { callerMediaLimits } from './media-limits';
import { OtherTabs } from './other-tabs';
import { preparePhoto, toJpeg, uploadPicture, type PreparedPicture } from './photo';
import { VideoSender } from './video-sender';

type Request = Extract<MediaServerFrame, { event: 'media-request' }>['data'];

export type VideoPhase = 'off' | 'starting' | 'live' | 'stills' | 'blocked' | 'stopped';

export interface PhotoItem {
  key: string;
  name: string;
  status: 'preparing' | 'sending' | 'sent' | 'failed';
  /** 0–1 while sending. */
  progress: number;
  error: 'network' | 'not-image' | 'refused' | null;
  /** The server's words for a refusal. */
  message: string | null;
}

export interface MediaState {
  /** A request waiting for Allow / Not now. */
  request: Pick<Request, 'requestId' | 'kind' | 'audio'> | null;
  /** The caller's last Not now, said back to them until the next request. */
  declined: boolean;
  video: VideoPhase;
  stream: MediaStream | null;
  /** The request whose photos the caller allowed (the picker shows); null: none. */
  photosAllowed: string | null;
  photos: readonly PhotoItem[];
  /** More were picked than may be sent; the rest were left out. */
  tooMany: boolean;
}

const idle: MediaState = {
  request: null,
  declined: false,
  video: 'off',
  stream: null,
  photosAllowed: null,
  photos: [],
  tooMany: false,
};

/** JPEG quality of a still: a 640×360 frame comes to about 40–80 KB. */
const STILL_QUALITY = 0.7;

/**
 * The caller's side of issue 19, framework-free: a dispatcher's request (shown until the caller
 * answers), the camera while it runs (one peer connection per viewer, see `VideoSender`), and
 * the photos being prepared and sent. Nothing is opened or sent before the caller's Allow; the
 * answer goes over the socket, which the server turns into the session's `media-answered`.
 */
export class CallerMedia {
  private state: MediaState = idle;
  private readonly listeners = new Set<() => void>();
  private sender: VideoSender | null = null;
  private iceServers: Request['iceServers'] = [];
  /** Viewers named before the camera was open: offered once it is. */
  private readonly waitingViewers = new Map<string, Request['iceServers']>();
  private stillInFlight = false;
  /** The server refused this call's stills for good (see `sendStill`). */
  private stillsRefused = false;
  private unsentAnswer: MediaClientFrame | null = null;
  private gone = false;
  /**
   * This tab's last camera opening, kept in the tab's session storage: a reload finds it there,
   * with no camera, and says that video is gone. `stop`: how it ended, if it did (the caller's
   * Stop, or the page that lost it), said again on every reconnect until another camera opens
   * (the server answers a stop it knows with silence, and one whose announcement failed is news
   * again). Another tab of the same link has its own, so it never stops this one's.
   */
  private video: VideoRecord | null;
  /** Answers a duplicated tab asking whether this one's camera is open (see `OtherTabs`). */
  private readonly otherTabs: OtherTabs;
  private askingOtherTabs = false;

  constructor(
    private readonly token: string,
    private readonly send: (frame: MediaClientFrame) => boolean,
  ) {
    this.video = readVideoRecord(token);
    this.otherTabs = new OtherTabs(
      videoKey(token),
      (videoId) => this.sender !== null && this.video?.id === videoId,
    );
  }

  readonly getState = (): MediaState => this.state;

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /**
   * The socket (re)opened: an answer given while it was down goes now, and what this tab's video
   * is now is said again (`resent`), if it had one. The server announces it only when it is
   * news (a state sent while the socket was down; on a reloaded page, a video gone with the old
   * page), and answers `video-stop` to a video that was stopped meanwhile.
   */
  readonly opened = (): void => {
    if (this.unsentAnswer && this.send(this.unsentAnswer)) this.unsentAnswer = null;
    const video = this.video;
    if (!video) return;
    const videoId = video.id;
    if (this.sender) {
      const state = this.state.video === 'stills' ? 'stills' : 'started';
      this.send({ event: 'video-state', data: { state, videoId, resent: true } });
      return;
    }
    // No camera, and no word of how it ended: the page was reloaded, and it went with it, unless
    // this tab is a copy of one that still has it open.
    if (video.stop === null) {
      void this.reportLostVideo(videoId);
      return;
    }
    const theirs = video.stop === 'caller';
    this.send({
      event: 'video-state',
      data: theirs ? { state: 'stopped', videoId } : { state: 'stopped', videoId, resent: true },
    });
  };

  readonly onFrame = (frame: MediaServerFrame): void => {
    if (this.gone) return;
    switch (frame.event) {
      case 'media-request': {
        const { requestId, kind, audio, iceServers } = frame.data;
        this.iceServers = iceServers;
        this.update({ request: { requestId, kind, audio }, declined: false });
        break;
      }
      case 'video-viewer':
        if (this.sender) void this.sender.addViewer(frame.data.viewerId, frame.data.iceServers);
        else this.waitingViewers.set(frame.data.viewerId, frame.data.iceServers);
        break;
      case 'video-viewer-left':
        this.waitingViewers.delete(frame.data.viewerId);
        this.sender?.removeViewer(frame.data.viewerId);
        break;
      case 'video-signal':
        void this.sender?.onSignal(frame.data.viewerId, frame.data.signal);
        break;
      case 'video-stop':
        // The dispatcher stopped it, or tracking ended: the server has said so in the log.
        this.closeCamera('stopped');
        // The server stopped it: nothing to say again.
        this.setVideo(null);
        break;
    }
  };

  /** Allow: for video the camera opens first; the answer says allowed once it is open. */
  readonly allow = async (): Promise<void> => {
    const request = this.state.request;
    if (!request) return;
    this.update({ request: null });
    if (request.kind === 'photo') {
      this.answer(request.requestId, 'allowed', false);
      this.update({ photosAllowed: request.requestId });
      return;
    }
    this.closeCamera('off');
    this.update({ video: 'starting' });
    let sender: VideoSender;
    try {
      sender = await VideoSender.open(request.audio, {
        send: this.send,
        onStills: () => {
          const videoId = this.video?.id;
          this.send({ event: 'video-state', data: { state: 'stills', videoId } });
          this.update({ video: 'stills' });
        },
        onStill: (canvas) => void this.sendStill(canvas),
      });
    } catch (error) {
      // The phone refused the camera: the dispatcher learns that the caller said yes but the
      // phone did not, and the caller why.
      console.warn('The camera did not open', error);
      this.answer(request.requestId, 'camera-unavailable', false);
      this.update({ video: 'blocked' });
      return;
    }
    if (this.gone) return sender.stop();
    this.sender = sender;
    this.answer(
      request.requestId,
      'allowed',
      request.audio && sender.stream.getAudioTracks().length > 0,
    );
    // The server lets dashboards watch once it has this: they ask, and it names them here. A new
    // camera opening, a new id (sent again on reconnect if this is lost).
    const videoId = crypto.randomUUID();
    this.setVideo({ id: videoId, stop: null });
    this.send({ event: 'video-state', data: { state: 'started', videoId } });
    this.update({ video: 'live', stream: sender.stream });
    for (const [viewerId, iceServers] of this.waitingViewers)
      void sender.addViewer(viewerId, iceServers);
    this.waitingViewers.clear();
  };

  readonly decline = (): void => {
    const request = this.state.request;
    if (!request) return;
    this.answer(request.requestId, 'declined', false);
    this.update({ request: null, declined: true });
  };

  readonly switchCamera = async (): Promise<void> => {
    const sender = this.sender;
    if (!sender) return;
    await sender
      .switchCamera()
      .catch((error: unknown) => console.warn('Camera switch failed', error));
    // Same stream object, other track: a new reference so the preview's effect runs again.
    if (this.sender === sender) this.update({ stream: sender.stream });
  };

  /** The caller's Stop video. */
  readonly stopVideo = (): void => {
    if (!this.sender) return;
    this.closeCamera('stopped');
    const videoId = this.video?.id;
    if (videoId) this.setVideo({ id: videoId, stop: 'caller' });
    this.send({ event: 'video-state', data: { state: 'stopped', videoId } });
  };

  /** Picked photos, up to what may still be sent; each is prepared and sent in turn. */
  readonly addPhotos = async (files: readonly File[]): Promise<void> => {
    const used = this.state.photos.filter((photo) => photo.status !== 'failed').length;
    const room = Math.max(0, callerMediaLimits.maxPhotosPerCaller - used);
    const taken = files.slice(0, room);
    const items = taken.map((file): PhotoItem => ({
      key: crypto.randomUUID(),
      name: file.name,
      status: 'preparing',
      progress: 0,
      error: null,
      message: null,
    }));
    this.update({ photos: [...this.state.photos, ...items], tooMany: files.length > room });
    // One at a time: a phone's uplink is better used for one photo finished than ten begun.
    for (const [index, file] of taken.entries()) await this.sendPhoto(items[index]!.key, file);
  };

  /** The page goes away (the request ended, the tab closes): the camera goes off. */
  readonly destroy = (): void => {
    this.gone = true;
    this.closeCamera('off');
    this.otherTabs.close();
    this.listeners.clear();
  };

  private async sendPhoto(key: string, file: File): Promise<void> {
    let picture: PreparedPicture;
    try {
      picture = await preparePhoto(file);
    } catch {
      return this.patchPhoto(key, { status: 'failed', error: 'not-image' });
    }
    this.patchPhoto(key, { status: 'sending' });
    const result = await uploadPicture(this.token, 'photo', picture, (progress) =>
      this.patchPhoto(key, { progress }),
    );
    if (result.ok) this.patchPhoto(key, { status: 'sent', progress: 1 });
    else
      this.patchPhoto(key, {
        status: 'failed',
        error: result.reason,
        message: result.reason === 'refused' ? (result.message ?? null) : null,
      });
  }

  /**
   * One still at a time: a slow uplink skips a still rather than queueing them. Once the server
   * says this call has sent all the stills it may (409), none is sent again in this call: on a
   * weak network each refused upload would cost the caller's uplink for nothing.
   */
  private async sendStill(canvas: HTMLCanvasElement): Promise<void> {
    if (this.stillInFlight || this.stillsRefused) return;
    this.stillInFlight = true;
    try {
      const blob = await toJpeg(canvas, STILL_QUALITY);
      const result = await uploadPicture(
        this.token,
        'still',
        {
          blob,
          width: canvas.width,
          height: canvas.height,
          takenAt: new Date(),
          exif: { latitude: null, longitude: null, uncertaintyRadiusInMeters: null, takenAt: null },
        },
        () => undefined,
      );
      if (!result.ok && result.reason === 'refused' && result.status === 409)
        this.stillsRefused = true;
    } catch (error) {
      // The next still, 3 s later, is as good as this one.
      console.warn('A still was not sent', error);
    } finally {
      this.stillInFlight = false;
    }
  }

  /**
   * This tab's record names a camera it does not have. A duplicated tab's original may still
   * have it open: then it is not this tab's to report, and the record is dropped. Otherwise it
   * went with a reload, and the server hears so (`resent`: it announces it once).
   */
  private async reportLostVideo(videoId: string): Promise<void> {
    if (this.askingOtherTabs) return;
    this.askingOtherTabs = true;
    const elsewhere = await this.otherTabs.hasElsewhere(videoId);
    this.askingOtherTabs = false;
    // A camera opened here meanwhile, or the page went: that has said what there is to say.
    if (this.gone || this.sender || this.video?.id !== videoId || this.video.stop !== null) return;
    if (elsewhere) return this.setVideo(null);
    this.setVideo({ id: videoId, stop: 'page' });
    this.send({ event: 'video-state', data: { state: 'stopped', videoId, resent: true } });
  }

  private setVideo(video: VideoRecord | null): void {
    this.video = video;
    try {
      if (video) sessionStorage.setItem(videoKey(this.token), JSON.stringify(video));
      else sessionStorage.removeItem(videoKey(this.token));
    } catch {
      // See readVideoRecord.
    }
  }

  private closeCamera(next: VideoPhase): void {
    this.waitingViewers.clear();
    const sender = this.sender;
    this.sender = null;
    if (!sender) return;
    sender.stop();
    this.update({ video: next, stream: null });
  }

  /** Sent now, or when the socket opens again: the dispatcher is waiting for it. */
  private answer(requestId: string, answer: MediaAnswer, audio: boolean): void {
    const frame: MediaClientFrame = { event: 'media-answer', data: { requestId, answer, audio } };
    this.unsentAnswer = this.send(frame) ? null : frame;
  }

  private patchPhoto(key: string, patch: Partial<PhotoItem>): void {
    this.update({
      photos: this.state.photos.map((photo) =>
        photo.key === key ? { ...photo, ...patch } : photo,
      ),
    });
  }

  private update(patch: Partial<MediaState>): void {
    if (this.gone) return;
    this.state = { ...this.state, ...patch };
    for (const listener of this.listeners) listener();
  }
}

/** This tab's last camera opening (see `CallerMedia.video`). */
interface VideoRecord {
  id: string;
  stop: 'caller' | 'page' | null;
}

const videoKey = (token: string) => `locus.video.${token.slice(0, 24)}`;

function readVideoRecord(token: string): VideoRecord | null {
  try {
    const stored = sessionStorage.getItem(videoKey(token));
    if (!stored) return null;
    const video = JSON.parse(stored) as Partial<VideoRecord>;
    if (typeof video.id !== 'string') return null;
    return {
      id: video.id,
      stop: video.stop === 'caller' || video.stop === 'page' ? video.stop : null,
    };
  } catch {
    // Storage blocked (a private window on some phones), or not ours: a reload then cannot say it.
    return null;
  }
}
