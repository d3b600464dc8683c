import type { SessionFrame } from '../dispatcher-socket';

export type MediaFrame = Extract<
  SessionFrame,
  { event: 'media-requested' | 'media-answered' | 'video-state' | 'photo-added' }
>;

export const isMediaFrame = (frame: SessionFrame): frame is MediaFrame =>
  frame.event === 'media-requested' ||
  frame.event === 'media-answered' ||
  frame.event === 'video-state' ||
  frame.event === 'photo-added';

const what = (kind: 'video' | 'photo', audio: boolean) =>
  kind === 'photo' ? 'photos' : audio ? 'video with sound' : 'video';

/**
 * The log's line for a media event (issue 19), or null for one not worth a line: stills come
 * every few seconds while the video cannot be sustained, and the gallery shows them.
 */
export function mediaLogMessage(frame: MediaFrame): string | null {
  switch (frame.event) {
    case 'media-requested':
      return `Requested ${what(frame.data.kind, frame.data.audio)} from the caller`;
    case 'media-answered':
      if (frame.data.answer === 'camera-unavailable')
        return 'Caller allowed video, but their phone did not open the camera (blocked or in use): ask for photos instead';
      return frame.data.answer === 'allowed'
        ? `Caller allowed ${what(frame.data.kind, frame.data.audio)}`
        : `Caller declined ${what(frame.data.kind, false)}`;
    case 'video-state': {
      const { state, by } = frame.data;
      if (state === 'started') return "Caller's video started";
      if (state === 'stills') return "Caller's video is too slow: showing still pictures instead";
      if (by === 'dispatcher') return 'Video stopped by the dispatcher';
      if (by === 'session-ended') return 'Video stopped: tracking ended';
      // The page came back without its camera (reloaded, or reopened from the text).
      if (by === 'network') return "Video stopped: the caller's page was reloaded";
      return 'Caller stopped the video';
    }
    case 'photo-added': {
      const { kind, position } = frame.data.photo;
      if (kind === 'still') return null;
      const where = position
        ? ` at ${position.latitude.toFixed(5)}, ${position.longitude.toFixed(5)}`
        : ' (no position in the photo)';
      return kind === 'snapshot' ? 'Snapshot of the video saved' : `Caller sent a photo${where}`;
    }
  }
}
