import { describe, expect, it } from 'vitest';
import { mediaLogMessage, type MediaFrame } from './media-log';

const base = {
  seq: 3,
  sessionId: '00000000-0000-4000-8000-000000000001',
  callerId: '00000000-0000-4000-8000-000000000002',
};
const requestId = '00000000-0000-4000-8000-000000000003';

describe('mediaLogMessage', () => {
  it('says what was asked and what the caller answered', () => {
    const lines = (
      [
        { event: 'media-requested', data: { ...base, kind: 'video', audio: true, requestId } },
        {
          event: 'media-answered',
          data: { ...base, kind: 'video', audio: false, requestId, answer: 'declined' },
        },
        {
          event: 'media-answered',
          data: { ...base, kind: 'photo', audio: false, requestId, answer: 'allowed' },
        },
        {
          event: 'media-answered',
          data: { ...base, kind: 'video', audio: false, requestId, answer: 'camera-unavailable' },
        },
        { event: 'video-state', data: { ...base, state: 'stopped', by: 'caller' } },
        { event: 'video-state', data: { ...base, state: 'stills', by: 'caller' } },
      ] satisfies MediaFrame[]
    ).map(mediaLogMessage);
    expect(lines).toEqual([
      'Requested video with sound from the caller',
      'Caller declined video',
      'Caller allowed photos',
      'Caller allowed video, but their phone did not open the camera (blocked or in use): ask for photos instead',
      'Caller stopped the video',
      "Caller's video is too slow: showing still pictures instead",
    ]);
  });

  it('names a photo’s position, and leaves stills out', () => {
    const photo = {
      id: '00000000-0000-4000-8000-000000000004',
      sessionId: base.sessionId,
      callerId: base.callerId,
      contentType: 'image/jpeg' as const,
      bytes: 1000,
      width: 10,
      height: 10,
      takenAt: '2026-11-29T22:00:00.000Z',
      uploadedAt: '2026-11-29T22:00:01.000Z',
      position: { latitude: 38.88951, longitude: -77.03533, uncertaintyRadiusInMeters: null },
      sha256: 'a'.repeat(64),
    };
    expect(
      mediaLogMessage({
        event: 'photo-added',
        data: { ...base, photo: { ...photo, kind: 'photo' } },
      }),
    ).toBe('Caller sent a photo at 38.88951, -77.03533');
    expect(
      mediaLogMessage({
        event: 'photo-added',
        data: { ...base, photo: { ...photo, kind: 'still' } },
      }),
    ).toBeNull();
  });
});
