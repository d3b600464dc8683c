import { describe, expect, it } from 'vitest';
import { VideoAdapter } from './adaptive';
import { callerMediaLimits } from './media-limits';

const run = (samples: { fps: number | null; limited?: boolean }[]) => {
  const adapter = new VideoAdapter();
  return samples.map((sample, second) =>
    adapter.next({
      now: second * 1_000,
      fps: sample.fps,
      bandwidthLimited: sample.limited ?? false,
    }),
  );
};

describe('VideoAdapter', () => {
  it('keeps a healthy video as it is', () => {
    expect(
      run(Array.from({ length: 30 }, () => ({ fps: 25 }))).every((step) => step.kind === 'keep'),
    ).toBe(true);
  });

  it('steps down once per 3 s of a limited network, to a quarter at most', () => {
    const steps = run(Array.from({ length: 20 }, () => ({ fps: 12, limited: true })));
    const degraded = steps.flatMap((step, second) =>
      step.kind === 'degrade' ? [{ second, ...step }] : [],
    );
    expect(degraded).toEqual([
      { second: 3, kind: 'degrade', scale: 2, maxBitrate: 300_000 },
      { second: 6, kind: 'degrade', scale: 4, maxBitrate: 150_000 },
    ]);
  });

  it('falls back to stills after stillsAfterMs under minVideoFps, once', () => {
    const seconds = callerMediaLimits.stillsAfterMs / 1_000;
    const steps = run([
      { fps: null },
      ...Array.from({ length: seconds + 3 }, () => ({ fps: callerMediaLimits.minVideoFps - 1 })),
    ]);
    const stills = steps.flatMap((step, second) => (step.kind === 'stills' ? [second] : []));
    expect(stills).toEqual([1 + seconds]);
  });

  it('a recovered second restarts the count', () => {
    const steps = run([
      ...Array.from({ length: 7 }, () => ({ fps: 1 })),
      { fps: 20 },
      ...Array.from({ length: 7 }, () => ({ fps: 1 })),
    ]);
    expect(steps.some((step) => step.kind === 'stills')).toBe(false);
  });
});
