import { callerMediaLimits } from './media-limits';

/** One second's look at what the phone is sending, over its busiest viewer connection. */
export interface SendSample {
  /** `performance.now()`. */
  now: number;
  /** Frames per second sent; null before the encoder has reported any. */
  fps: number | null;
  /** The encoder says the network (not the CPU) holds the video back. */
  bandwidthLimited: boolean;
}

export type AdaptStep =
  | { kind: 'keep' }
  /** Send at a lower resolution (`scale`: the divisor of each side) and bitrate. */
  | { kind: 'degrade'; scale: number; maxBitrate: number }
  /** Video cannot be sustained: send a still every `stillEveryMs` instead. */
  | { kind: 'stills' };

/** The starting resolution's bitrate cap, then each degraded step's (scale 1, 2, 4). */
export const bitrateLadder = [
  { scale: 1, maxBitrate: 600_000 },
  { scale: 2, maxBitrate: 300_000 },
  { scale: 4, maxBitrate: 150_000 },
] as const;

/** A limited network for this long steps the resolution down once. */
const DEGRADE_AFTER_MS = 3_000;

/**
 * Decides from the send statistics, one sample a second: a network that limits the video for
 * a few seconds steps the resolution (and bitrate) down; fewer than `minVideoFps` frames a second
 * for `stillsAfterMs` (at the lowest step or not: a frozen video helps no one) falls back to
 * stills. It never steps back up by itself: a network that just failed is not trusted again
 * within a call, and the caller can start the video again.
 */
export class VideoAdapter {
  private step = 0;
  private limitedSince: number | null = null;
  private slowSince: number | null = null;
  private done = false;

  next(sample: SendSample): AdaptStep {
    if (this.done) return { kind: 'keep' };
    const slow = sample.fps !== null && sample.fps < callerMediaLimits.minVideoFps;
    this.slowSince = slow ? (this.slowSince ?? sample.now) : null;
    if (this.slowSince !== null && sample.now - this.slowSince >= callerMediaLimits.stillsAfterMs) {
      this.done = true;
      return { kind: 'stills' };
    }
    this.limitedSince = sample.bandwidthLimited || slow ? (this.limitedSince ?? sample.now) : null;
    if (
      this.limitedSince !== null &&
      sample.now - this.limitedSince >= DEGRADE_AFTER_MS &&
      this.step < bitrateLadder.length - 1
    ) {
      this.step += 1;
      this.limitedSince = sample.now;
      return { kind: 'degrade', ...bitrateLadder[this.step]! };
    }
    return { kind: 'keep' };
  }
}
