import { mediaLimits, realtimeLimits } from '@locus/contract';

/**
 * One socket's allowance of media frames: `mediaLimits.signalBurst` at once (a peer connection
 * starting trickles a few dozen candidates), then `mediaLimits.signalsPerSecond`. Apart from the
 * caller's fix allowance, so that a video starting never costs a position.
 */
export class SignalBucket {
  private tokens: number = mediaLimits.signalBurst;
  private refilledAt = Date.now();
  /** Frames refused since the allowance was last full. */
  private refusedInRow = 0;

  /** 'ok', 'refused' (answer `rate-limited`), or 'flood' (refused past every answer: close). */
  take(): 'ok' | 'refused' | 'flood' {
    const now = Date.now();
    this.tokens = Math.min(
      mediaLimits.signalBurst,
      this.tokens + ((now - this.refilledAt) / 1000) * mediaLimits.signalsPerSecond,
    );
    this.refilledAt = now;
    // Full again: the sender backed off, and its earlier refusals are forgiven.
    if (this.tokens >= mediaLimits.signalBurst) this.refusedInRow = 0;
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return 'ok';
    }
    this.refusedInRow += 1;
    return this.refusedInRow > realtimeLimits.rateLimitedFramesBeforeClose ? 'flood' : 'refused';
  }
}
