import { describe, expect, it } from 'vitest';
import { readSeq, sequencedFrame, stampAccepted, unstamp } from './frames';

describe('the accepted-at stamp of a published fix', () => {
  it('is cut off, leaving exactly the frame (a view of the same bytes)', () => {
    const frame = sequencedFrame('new-location-available', 42, '{"sessionId":"s"}');
    const message = Buffer.from(stampAccepted(1_795_597_241_535) + frame);
    const { acceptedAtMs, frame: bytes } = unstamp(message);
    expect(acceptedAtMs).toBe(1_795_597_241_535);
    expect(bytes.toString()).toBe(frame);
    expect(bytes.buffer).toBe(message.buffer);
    expect(readSeq(bytes)).toBe(42);
  });

  it('leaves an unstamped frame as it is', () => {
    const message = Buffer.from(sequencedFrame('caller-connected', 7, '{"connected":true}'));
    const { acceptedAtMs, frame } = unstamp(message);
    expect(acceptedAtMs).toBe(0);
    expect(frame).toBe(message);
  });
});
