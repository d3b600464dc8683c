import type { Page } from 'playwright-core';

/**
 * Runs in the page before its own scripts (`addInitScript`), as plain JavaScript, in Locus's page
 * and the reference page alike:
 * - a requestAnimationFrame loop noting each frame's start time and the time since the last
 *   (Chromium's frame timestamps, so the deltas are whole vsync intervals: 16.7, 33.3, … ms);
 * - a PerformanceObserver for `longtask` entries (main-thread tasks over 50 ms);
 * - a count of the fix frames reaching the page on any WebSocket (`new-location-available`
 *   from Locus's dispatcher socket, `"event":"fix"` from the reference relay), by a listener
 *   added beside the page's own.
 * Everything is kept with `performance.now()` times; the bench reads the measured window's part.
 */
export const measureScript = `(() => {
  const bench = { frames: [], longTasks: [], fixes: [] };
  Object.defineProperty(window, '__locusBench', { value: bench });
  let last = null;
  const loop = (t) => {
    if (last !== null) bench.frames.push(t, t - last);
    last = t;
    requestAnimationFrame(loop);
  };
  requestAnimationFrame(loop);
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) bench.longTasks.push(e.startTime, e.duration);
    }).observe({ type: 'longtask', buffered: true });
  } catch {}
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', (m) => {
        if (typeof m.data !== 'string') return;
        if (m.data.includes('new-location-available') || m.data.includes('"event":"fix"'))
          bench.fixes.push(performance.now());
      });
    }
  };
})();`;

export interface WindowSamples {
  /** Inter-frame deltas (ms) of the frames that started in the window. */
  deltas: number[];
  /** Long tasks that started in the window: [startTime, duration] pairs flattened. */
  longTasks: number[];
  fixes: number;
  windowMs: number;
}

/** The page's clock now. */
export const pageNow = (page: Page): Promise<number> => page.evaluate(() => performance.now());

/** What the page noted between two of its `performance.now()` readings. */
export async function samplesBetween(page: Page, from: number, to: number): Promise<WindowSamples> {
  return page.evaluate(
    ([start, end]) => {
      const bench = (
        globalThis as unknown as {
          __locusBench: { frames: number[]; longTasks: number[]; fixes: number[] };
        }
      ).__locusBench;
      const deltas: number[] = [];
      for (let i = 0; i < bench.frames.length; i += 2) {
        const t = bench.frames[i]!;
        if (t >= start && t <= end) deltas.push(bench.frames[i + 1]!);
      }
      const longTasks: number[] = [];
      for (let i = 0; i < bench.longTasks.length; i += 2) {
        const t = bench.longTasks[i]!;
        if (t >= start && t <= end) longTasks.push(t, bench.longTasks[i + 1]!);
      }
      return {
        deltas,
        longTasks,
        fixes: bench.fixes.filter((t) => t >= start && t <= end).length,
        windowMs: end - start,
      };
    },
    [from, to] as const,
  );
}

export interface FrameStats {
  windowSeconds: number;
  frames: number;
  /** Frames per second over the window. */
  fps: number;
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
  maxMs: number;
  /** Share of frames whose delta is over 50 ms. */
  over50Share: number;
  /** Share of the window's time spent in frames over 50 ms. */
  over50TimeShare: number;
  longTasks: number;
  longTaskMs: number;
  longestTaskMs: number;
  /** Share of the window the main thread spent in long tasks. */
  longTaskShare: number;
  fixesToPage: number;
}

/** Nearest rank, as bench/src/stats.ts. */
function rank(sorted: number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.max(1, Math.ceil(q * sorted.length)) - 1]!;
}

const r1 = (n: number): number => Math.round(n * 10) / 10;
const r3 = (n: number): number => Math.round(n * 1000) / 1000;

export function frameStats(samples: WindowSamples): FrameStats {
  const sorted = [...samples.deltas].sort((a, b) => a - b);
  const total = sorted.reduce((sum, d) => sum + d, 0);
  const slow = sorted.filter((d) => d > 50);
  const durations: number[] = [];
  for (let i = 1; i < samples.longTasks.length; i += 2) durations.push(samples.longTasks[i]!);
  const longTaskMs = durations.reduce((sum, d) => sum + d, 0);
  return {
    windowSeconds: r1(samples.windowMs / 1000),
    frames: sorted.length,
    fps: r1(sorted.length / (samples.windowMs / 1000)),
    p50Ms: r1(rank(sorted, 0.5)),
    p95Ms: r1(rank(sorted, 0.95)),
    p99Ms: r1(rank(sorted, 0.99)),
    maxMs: r1(sorted.at(-1) ?? Number.NaN),
    over50Share: r3(slow.length / Math.max(1, sorted.length)),
    over50TimeShare: r3(slow.reduce((sum, d) => sum + d, 0) / Math.max(1, total)),
    longTasks: durations.length,
    longTaskMs: Math.round(longTaskMs),
    longestTaskMs: Math.round(Math.max(0, ...durations)),
    longTaskShare: r3(longTaskMs / Math.max(1, samples.windowMs)),
    fixesToPage: samples.fixes,
  };
}
