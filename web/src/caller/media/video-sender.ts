import type { MediaClientFrame, MediaServerFrame } from '../caller-socket';
import { bitrateLadder, VideoAdapter, type AdaptStep } from './adaptive';
import { callerMediaLimits } from './media-limits';

type Signal = Extract<MediaServerFrame, { event: 'video-signal' }>['data']['signal'];
type IceServers = Extract<MediaServerFrame, { event: 'video-viewer' }>['data']['iceServers'];
export type Facing = 'environment' | 'user';

/** Low resolution first (issue 19): a weak uplink gets a picture at all; it steps down from here. */
const videoConstraints = (facing: Facing): MediaTrackConstraints => ({
  facingMode: { ideal: facing },
  width: { ideal: 640 },
  height: { ideal: 360 },
  frameRate: { ideal: 15, max: 24 },
});

interface Viewer {
  pc: RTCPeerConnection;
  /** Candidates that came before the viewer's answer. */
  early: RTCIceCandidateInit[];
  lastFrames: number | null;
  lastAt: number | null;
}

export interface VideoSenderEvents {
  send(frame: MediaClientFrame): boolean;
  /** The video fell back to stills (the sender keeps the camera and sends none). */
  onStills(): void;
  /** A still to upload (JPEG), while in stills. */
  onStill(canvas: HTMLCanvasElement): void;
}

/**
 * The caller's camera and one RTCPeerConnection per dashboard watching it (a mesh: the server
 * allows `maxVideoViewers`). The page offers when the server names a viewer, trickles its ICE
 * candidates, and closes a viewer's connection when it leaves. Once a second it reads the send
 * statistics and lets `VideoAdapter` lower the resolution or fall back to stills.
 */
export class VideoSender {
  readonly stream: MediaStream;
  private readonly viewers = new Map<string, Viewer>();
  private readonly adapter = new VideoAdapter();
  private statsTimer: ReturnType<typeof setInterval> | undefined;
  private stillTimer: ReturnType<typeof setInterval> | undefined;
  private stillVideo: HTMLVideoElement | null = null;
  private scale: number = bitrateLadder[0].scale;
  private maxBitrate: number = bitrateLadder[0].maxBitrate;
  private stopped = false;
  facing: Facing = 'environment';

  private constructor(
    stream: MediaStream,
    private readonly events: VideoSenderEvents,
  ) {
    this.stream = stream;
    this.statsTimer = setInterval(() => void this.sample(), 1_000);
  }

  /** Opens the rear camera (and the microphone, if `audio`); rejects as getUserMedia does. */
  static async open(audio: boolean, events: VideoSenderEvents): Promise<VideoSender> {
    const stream = await navigator.mediaDevices.getUserMedia({
      video: videoConstraints('environment'),
      audio,
    });
    return new VideoSender(stream, events);
  }

  get inStills(): boolean {
    return this.stillTimer !== undefined;
  }

  /** A dashboard may now watch: offer it the camera. */
  async addViewer(viewerId: string, iceServers: IceServers): Promise<void> {
    if (this.stopped) return;
    this.removeViewer(viewerId);
    const pc = new RTCPeerConnection({ iceServers: iceServers as RTCIceServer[] });
    const viewer: Viewer = { pc, early: [], lastFrames: null, lastAt: null };
    this.viewers.set(viewerId, viewer);
    for (const track of this.stream.getTracks()) pc.addTrack(track, this.stream);
    pc.onicecandidate = ({ candidate }) =>
      void this.events.send({
        event: 'video-signal',
        data: { viewerId, signal: { candidate: candidate ? candidateInit(candidate) : null } },
      });
    pc.onconnectionstatechange = () => {
      if (pc.connectionState === 'failed') this.removeViewer(viewerId);
    };
    await this.applyEncoding(pc);
    const offer = await pc.createOffer();
    await pc.setLocalDescription(offer);
    if (this.viewers.get(viewerId)?.pc !== pc || !offer.sdp) return;
    this.events.send({
      event: 'video-signal',
      data: { viewerId, signal: { description: { type: 'offer', sdp: offer.sdp } } },
    });
  }

  removeViewer(viewerId: string): void {
    const viewer = this.viewers.get(viewerId);
    if (!viewer) return;
    this.viewers.delete(viewerId);
    viewer.pc.close();
  }

  async onSignal(viewerId: string, signal: Signal): Promise<void> {
    const viewer = this.viewers.get(viewerId);
    if (!viewer) return;
    const { pc } = viewer;
    try {
      if (signal.description) {
        if (signal.description.type !== 'answer') return;
        await pc.setRemoteDescription(signal.description);
        for (const candidate of viewer.early.splice(0)) await pc.addIceCandidate(candidate);
      } else if (signal.candidate !== undefined) {
        const candidate = signal.candidate ?? undefined;
        if (!pc.remoteDescription) {
          if (candidate) viewer.early.push(candidate);
        } else await pc.addIceCandidate(candidate);
      }
    } catch (error) {
      // One viewer's bad signal must not stop the camera for the others.
      console.warn('A video signal could not be applied', error);
    }
  }

  /** Front ↔ rear: the new camera's track replaces the old one on every connection. */
  async switchCamera(): Promise<void> {
    const next: Facing = this.facing === 'environment' ? 'user' : 'environment';
    const old = this.stream.getVideoTracks()[0];
    // Many phones cannot open a second camera while the first is open.
    old?.stop();
    let track: MediaStreamTrack | undefined;
    try {
      const fresh = await navigator.mediaDevices.getUserMedia({ video: videoConstraints(next) });
      track = fresh.getVideoTracks()[0];
      this.facing = next;
    } catch {
      const back = await navigator.mediaDevices.getUserMedia({
        video: videoConstraints(this.facing),
      });
      track = back.getVideoTracks()[0];
    }
    if (!track) return;
    if (old) this.stream.removeTrack(old);
    this.stream.addTrack(track);
    for (const { pc } of this.viewers.values())
      for (const sender of pc.getSenders())
        if (sender.track === old) await sender.replaceTrack(track);
  }

  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    clearInterval(this.statsTimer);
    clearInterval(this.stillTimer);
    this.stillTimer = undefined;
    for (const viewerId of [...this.viewers.keys()]) this.removeViewer(viewerId);
    for (const track of this.stream.getTracks()) track.stop();
    this.stillVideo = null;
  }

  private async applyEncoding(pc: RTCPeerConnection): Promise<void> {
    for (const sender of pc.getSenders()) {
      if (sender.track?.kind !== 'video') continue;
      const parameters = sender.getParameters();
      // Before negotiation Chromium lists no encodings: the offer takes the track's defaults,
      // and the first stats second applies the cap.
      if (!parameters.encodings?.length) continue;
      for (const encoding of parameters.encodings) {
        encoding.scaleResolutionDownBy = this.scale;
        encoding.maxBitrate = this.maxBitrate;
        encoding.active = !this.inStills;
      }
      await sender.setParameters(parameters).catch(() => undefined);
    }
  }

  /** One second's statistics, over the viewer sending the most frames. */
  private async sample(): Promise<void> {
    if (this.stopped || this.viewers.size === 0 || this.inStills) return;
    let best: number | null = null;
    let limited = false;
    for (const viewer of this.viewers.values()) {
      if (viewer.pc.connectionState !== 'connected') continue;
      const stats = await viewer.pc.getStats();
      stats.forEach((report: RTCStats & Record<string, unknown>) => {
        if (report.type !== 'outbound-rtp' || report.kind !== 'video') return;
        const frames = typeof report.framesSent === 'number' ? report.framesSent : null;
        const at = report.timestamp;
        if (
          frames !== null &&
          viewer.lastFrames !== null &&
          viewer.lastAt !== null &&
          at > viewer.lastAt
        ) {
          const fps = ((frames - viewer.lastFrames) * 1_000) / (at - viewer.lastAt);
          best = Math.max(best ?? 0, fps);
        }
        viewer.lastFrames = frames;
        viewer.lastAt = at;
        if (report.qualityLimitationReason === 'bandwidth') limited = true;
      });
      await this.applyEncoding(viewer.pc);
    }
    this.adapt(this.adapter.next({ now: performance.now(), fps: best, bandwidthLimited: limited }));
  }

  private adapt(step: AdaptStep): void {
    if (step.kind === 'degrade') {
      this.scale = step.scale;
      this.maxBitrate = step.maxBitrate;
      for (const { pc } of this.viewers.values()) void this.applyEncoding(pc);
    } else if (step.kind === 'stills') {
      this.startStills();
    }
  }

  /** The video is paused on every connection (the uplink is for stills now). */
  private startStills(): void {
    if (this.inStills || this.stopped) return;
    const video = document.createElement('video');
    video.muted = true;
    video.playsInline = true;
    video.srcObject = this.stream;
    void video.play().catch(() => undefined);
    this.stillVideo = video;
    this.stillTimer = setInterval(() => this.takeStill(), callerMediaLimits.stillEveryMs);
    for (const { pc } of this.viewers.values()) void this.applyEncoding(pc);
    this.events.onStills();
  }

  private takeStill(): void {
    const video = this.stillVideo;
    if (!video || video.videoWidth === 0) return;
    const canvas = document.createElement('canvas');
    canvas.width = video.videoWidth;
    canvas.height = video.videoHeight;
    canvas.getContext('2d')?.drawImage(video, 0, 0);
    this.events.onStill(canvas);
  }
}

/** The candidate as the contract's `IceCandidate` (no extra fields, no undefined). */
function candidateInit(candidate: RTCIceCandidate) {
  const json = candidate.toJSON();
  return {
    candidate: json.candidate ?? '',
    sdpMid: json.sdpMid ?? null,
    sdpMLineIndex: json.sdpMLineIndex ?? null,
    usernameFragment: json.usernameFragment ?? null,
  };
}
