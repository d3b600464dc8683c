import type { SessionPhoto } from '@locus/contract';
import { selectIsTracking } from '@locus/machines';
import type { LogEntry } from '@locus/machines';
import { useSelector } from '@xstate/react';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { DispatcherSocket, MediaServerFrame } from '../dispatcher-socket';
import type { TrackingActor } from '../useTracking';
import { fetchSessionMedia, uploadSnapshot } from './media-api';
import { isMediaFrame, mediaLogMessage } from './media-log';
import { StreamRecorder } from './recorder';

export type VideoState = 'off' | 'started' | 'stills' | 'stopped';

/** How many times a failed connection is asked for again before the dispatcher decides. */
const maxRewatches = 3;

const videoConnectionLost =
  "The video connection was lost. If the caller's page has closed, press Stop video and ask again.";
type Signal = Extract<MediaServerFrame, { event: 'video-signal' }>['data']['signal'];

/** A picture as the gallery lists it: the URL once the media list has given one. */
export type GalleryPhoto = Omit<SessionPhoto, 'url' | 'urlExpiresAt'> & { url: string | null };

export interface VideoStats {
  kbps: number | null;
  fps: number | null;
  width: number | null;
  height: number | null;
}

interface Viewer {
  callerId: string;
  viewerId: string;
  pc: RTCPeerConnection;
  early: RTCIceCandidateInit[];
  lastBytes: number | null;
  lastAt: number | null;
}

export interface PendingRequest {
  kind: 'video' | 'photo';
  callerId: string;
}

/**
 * The dispatcher's side of issue 19: the session's media events (live and replayed) as log
 * lines, the state of each caller's video, the gallery; and, while the tracked caller's video
 * runs, this dashboard's viewer connection (it asks to watch with `video-watch` once the caller
 * says `started`, answers the caller's offer, trickles its candidates) with its statistics.
 */
export function useCallerMedia({
  socket,
  actor,
  callerId,
}: {
  socket: DispatcherSocket;
  actor: TrackingActor;
  /** The caller the panel is for; null: none yet. */
  callerId: string | null;
}) {
  const sessionId = useSelector(actor, (snapshot) => snapshot.context.connectionRequestUuid);
  const tracking = useSelector(actor, selectIsTracking);
  const [log, setLog] = useState<LogEntry[]>([]);
  const [videoStates, setVideoStates] = useState<Record<string, VideoState>>({});
  const [pending, setPending] = useState<PendingRequest | null>(null);
  const [photos, setPhotos] = useState<GalleryPhoto[]>([]);
  const [still, setStill] = useState<{ callerId: string; url: string; at: number } | null>(null);
  const [stream, setStream] = useState<MediaStream | null>(null);
  const [stats, setStats] = useState<VideoStats | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [recording, setRecording] = useState(false);
  const viewer = useRef<Viewer | null>(null);
  // The listener reads the newest states without re-subscribing.
  const videoStatesRef = useRef<Record<string, VideoState>>({});
  const joined = useRef(false);
  /** New connections asked for since the last one that worked (see `onViewer`). */
  const rewatches = useRef(0);
  const live = useRef({ callerId, sessionId, tracking });
  live.current = { callerId, sessionId, tracking };

  const closeViewer = useCallback(() => {
    viewer.current?.pc.close();
    viewer.current = null;
    setStream(null);
    setStats(null);
  }, []);

  // A new session starts empty.
  useEffect(() => {
    setLog([]);
    videoStatesRef.current = {};
    setVideoStates({});
    setPending(null);
    setPhotos([]);
    setStill(null);
    setProblem(null);
    closeViewer();
  }, [sessionId, closeViewer]);

  const refreshGallery = useCallback(async () => {
    const id = live.current.sessionId;
    if (!id) return;
    try {
      const media = await fetchSessionMedia(id);
      if (live.current.sessionId !== id) return;
      setPhotos((known) => {
        const urls = new Map(media.photos.map((photo) => [photo.id, photo]));
        const merged = known.map((photo) => ({
          ...photo,
          url: urls.get(photo.id)?.url ?? photo.url,
        }));
        for (const photo of media.photos)
          if (!known.some((item) => item.id === photo.id)) merged.push(photo);
        return merged;
      });
    } catch (error) {
      console.warn('The media list did not load', error);
    }
  }, []);

  // Asked again on every `started`, even with a connection open: a caller who opened the camera
  // anew (another dashboard's request) closed every old connection; the server replaces this
  // socket's viewer, and the new `video-viewer` replaces the connection.
  const watch = useCallback(
    (target: string) => socket.sendMedia({ event: 'video-watch', data: { callerId: target } }),
    [socket],
  );

  const sendSignal = useCallback(
    (target: string, signal: Signal) =>
      socket.sendMedia({ event: 'video-signal', data: { callerId: target, signal } }),
    [socket],
  );

  const onViewer = useCallback(
    (frame: Extract<MediaServerFrame, { event: 'video-viewer' }>['data']) => {
      closeViewer();
      const pc = new RTCPeerConnection({ iceServers: frame.iceServers as RTCIceServer[] });
      const next: Viewer = {
        callerId: frame.callerId,
        viewerId: frame.viewerId,
        pc,
        early: [],
        lastBytes: null,
        lastAt: null,
      };
      viewer.current = next;
      // Receive only: the dispatcher sends nothing to the caller's phone.
      pc.ontrack = (event) => {
        if (viewer.current === next) setStream(event.streams[0] ?? new MediaStream([event.track]));
      };
      // The connection died under a video the server still calls running: the caller's page
      // closed without a word, or a network between failed. Not a frozen picture: say so, and
      // ask for a new connection a few times (a page still filming answers it; a closed one
      // never does, and an unreachable one fails again, half a minute later each time).
      pc.onconnectionstatechange = () => {
        if (viewer.current !== next) return;
        if (pc.connectionState === 'connected') {
          rewatches.current = 0;
          setProblem((shown) => (shown === videoConnectionLost ? null : shown));
          return;
        }
        if (pc.connectionState !== 'failed') return;
        closeViewer();
        setProblem(videoConnectionLost);
        const target = live.current.callerId;
        const state = target ? videoStatesRef.current[target] : undefined;
        const running = state === 'started' || state === 'stills';
        if (target === frame.callerId && running && rewatches.current < maxRewatches) {
          rewatches.current += 1;
          watch(target);
        }
      };
      pc.onicecandidate = ({ candidate }) => {
        const json = candidate?.toJSON();
        sendSignal(frame.callerId, {
          candidate: json
            ? {
                candidate: json.candidate ?? '',
                sdpMid: json.sdpMid ?? null,
                sdpMLineIndex: json.sdpMLineIndex ?? null,
                usernameFragment: json.usernameFragment ?? null,
              }
            : null,
        });
      };
    },
    [closeViewer, sendSignal, watch],
  );

  const onSignal = useCallback(
    async (frame: Extract<MediaServerFrame, { event: 'video-signal' }>['data']) => {
      const current = viewer.current;
      if (!current || current.viewerId !== frame.viewerId) return;
      const { pc } = current;
      try {
        const { description, candidate } = frame.signal;
        if (description?.type === 'offer') {
          await pc.setRemoteDescription(description);
          for (const early of current.early.splice(0)) await pc.addIceCandidate(early);
          const answer = await pc.createAnswer();
          await pc.setLocalDescription(answer);
          if (answer.sdp)
            sendSignal(current.callerId, { description: { type: 'answer', sdp: answer.sdp } });
        } else if (candidate !== undefined) {
          if (!pc.remoteDescription) {
            if (candidate) current.early.push(candidate);
          } else await pc.addIceCandidate(candidate ?? undefined);
        }
      } catch (error) {
        console.warn('A video signal could not be applied', error);
      }
    },
    [sendSignal],
  );

  useEffect(
    () =>
      socket.listen({
        onSessionEvent(frame) {
          if (!isMediaFrame(frame)) return;
          const message = mediaLogMessage(frame);
          const entry = message
            ? { message, time: Date.now(), callerId: frame.data.callerId }
            : null;
          if (entry) setLog((entries) => [...entries, entry]);
          const { callerId: from } = frame.data;
          switch (frame.event) {
            case 'media-requested':
              setPending({ kind: frame.data.kind, callerId: from });
              break;
            case 'media-answered':
              setPending(null);
              break;
            case 'video-state': {
              const state = frame.data.state;
              videoStatesRef.current = { ...videoStatesRef.current, [from]: state };
              setVideoStates(videoStatesRef.current);
              if (state === 'stopped') {
                if (viewer.current?.callerId === from) closeViewer();
                setStill(null);
                setProblem((shown) => (shown === videoConnectionLost ? null : shown));
              } else if (joined.current && from === live.current.callerId) {
                // A new camera, or a new state of it: its connection gets its own tries.
                rewatches.current = 0;
                watch(from);
              }
              break;
            }
            case 'photo-added':
              setPhotos((known) =>
                known.some((photo) => photo.id === frame.data.photo.id)
                  ? known
                  : [...known, { ...frame.data.photo, url: null }],
              );
              void refreshGallery();
              break;
          }
        },
        onClosedForGood() {
          closeViewer();
        },
        onJoined() {
          // After a (re)join (a reload's replay, a reconnect: the old viewer left with the old
          // socket), watch again if the tracked caller's video runs.
          joined.current = true;
          closeViewer();
          const target = live.current.callerId;
          const state = target ? videoStatesRef.current[target] : undefined;
          if (target && (state === 'started' || state === 'stills')) watch(target);
        },
        onMediaFrame(frame) {
          if (frame.event === 'video-viewer') onViewer(frame.data);
          else if (frame.event === 'video-signal') void onSignal(frame.data);
          else setStill({ callerId: frame.data.callerId, url: frame.data.url, at: Date.now() });
        },
        onError(error) {
          // Only the media frames' refusals are this panel's to show.
          if (/video|media/i.test(error.message)) setProblem(error.message);
        },
      }),
    [socket, watch, closeViewer, onViewer, onSignal, refreshGallery],
  );

  // Tracking ended (or this view left it): no connection stays open.
  useEffect(() => {
    if (!tracking) closeViewer();
  }, [tracking, closeViewer]);
  useEffect(() => () => closeViewer(), [closeViewer]);

  // The team's evidence recording: while the video arrives, from what arrives.
  useEffect(() => {
    const { sessionId: id, callerId: target } = live.current;
    if (!stream || !id || !target) return;
    let recorder: StreamRecorder | null = null;
    let stopped = false;
    StreamRecorder.start(id, target, stream).then(
      (started) => {
        recorder = started;
        if (stopped) void recorder?.stop();
        else if (recorder) setRecording(true);
      },
      (error: unknown) => console.warn('The video is not being recorded', error),
    );
    return () => {
      stopped = true;
      setRecording(false);
      recorder
        ?.stop()
        .catch((error: unknown) => console.warn('The recording did not finish', error));
    };
  }, [stream]);

  // Bitrate and frame rate of what arrives, once a second.
  useEffect(() => {
    if (!stream) return;
    const timer = setInterval(() => {
      const current = viewer.current;
      if (!current) return;
      void current.pc.getStats().then((reports) => {
        reports.forEach((report: RTCStats & Record<string, unknown>) => {
          if (report.type !== 'inbound-rtp' || report.kind !== 'video') return;
          const bytes = typeof report.bytesReceived === 'number' ? report.bytesReceived : null;
          const at = report.timestamp;
          const kbps =
            bytes !== null &&
            current.lastBytes !== null &&
            current.lastAt !== null &&
            at > current.lastAt
              ? ((bytes - current.lastBytes) * 8) / (at - current.lastAt)
              : null;
          current.lastBytes = bytes;
          current.lastAt = at;
          setStats({
            kbps: kbps === null ? null : Math.round(kbps),
            fps:
              typeof report.framesPerSecond === 'number'
                ? Math.round(report.framesPerSecond)
                : null,
            width: typeof report.frameWidth === 'number' ? report.frameWidth : null,
            height: typeof report.frameHeight === 'number' ? report.frameHeight : null,
          });
        });
      });
    }, 1_000);
    return () => clearInterval(timer);
  }, [stream]);

  const request = useCallback(
    (kind: 'video' | 'photo', audio = false) => {
      const target = live.current.callerId;
      if (!target) return false;
      setProblem(null);
      return socket.sendMedia({ event: 'media-request', data: { callerId: target, kind, audio } });
    },
    [socket],
  );

  const stopVideo = useCallback(() => {
    const target = live.current.callerId;
    if (target) socket.sendMedia({ event: 'video-stop', data: { callerId: target } });
  }, [socket]);

  /** The frame the dispatcher sees now, stored with the session as a snapshot. */
  const snapshot = useCallback(async (video: HTMLVideoElement) => {
    const { sessionId: id, callerId: target } = live.current;
    if (!id || !target || video.videoWidth === 0) return;
    const canvas = document.createElement('canvas');
    canvas.width = video.videoWidth;
    canvas.height = video.videoHeight;
    canvas.getContext('2d')?.drawImage(video, 0, 0);
    const blob = await new Promise<Blob | null>((resolve) =>
      canvas.toBlob(resolve, 'image/jpeg', 0.9),
    );
    if (!blob) throw new Error('The video frame could not be encoded');
    await uploadSnapshot(id, target, blob);
  }, []);

  return {
    sessionId,
    tracking,
    log,
    videoState: callerId ? (videoStates[callerId] ?? 'off') : 'off',
    pending,
    photos,
    still: latestStill(still, photos, callerId),
    stream,
    stats,
    recording,
    problem,
    request,
    stopVideo,
    snapshot,
  };
}

export type CallerMediaView = ReturnType<typeof useCallerMedia>;

/**
 * The newest still of the caller's video: from a `video-still` frame, or the newest `still` in
 * the gallery (announced by `photo-added`, its URL from the media list), whichever is newer.
 */
function latestStill(
  frame: { callerId: string; url: string; at: number } | null,
  photos: readonly GalleryPhoto[],
  callerId: string | null,
): { url: string; at: number } | null {
  let newest = frame && frame.callerId === callerId ? { url: frame.url, at: frame.at } : null;
  for (const photo of photos) {
    if (photo.kind !== 'still' || photo.callerId !== callerId || !photo.url) continue;
    const at = Date.parse(photo.uploadedAt);
    if (!newest || at > newest.at) newest = { url: photo.url, at };
  }
  return newest;
}
