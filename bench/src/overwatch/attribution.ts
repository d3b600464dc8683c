import type { CDPSession } from 'playwright-core';

/**
 * Where the renderer's main thread spends its time, from a window after the measured one (both
 * tools slow the page a little, so their window is not the one the frame times come from):
 *
 * - a Chromium trace (`devtools.timeline`): the main thread's time by kind of work, each event's
 *   own time without what nests inside it (script, style, layout, paint, GC, …);
 * - a V8 CPU profile: script time by where the code comes from, mapped through the build's
 *   source maps to a package (`react-dom`, `leaflet`, `@mantine/core`, …) or a file of `web/src`.
 */

export interface Share {
  name: string;
  ms: number;
  /** Share of the window. */
  share: number;
}

export interface Attribution {
  /** How long the trace and the profile actually covered (a busy page answers late). */
  windowSeconds: number;
  profileSeconds: number;
  /** Main thread busy (top-level tasks), share of the window. */
  busyShare: number;
  byKind: Share[];
  bySource: Share[];
  byFunction: Share[];
}

interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { name?: string };
}

/** Exclusive (self) time per event name on one thread, from complete ('X') events. */
function selfTimes(events: TraceEvent[]): { byName: Map<string, number>; busyUs: number } {
  const sorted = events
    .filter((e) => e.ph === 'X' && typeof e.dur === 'number')
    .sort((a, b) => a.ts - b.ts || b.dur! - a.dur!);
  const byName = new Map<string, number>();
  const stack: { end: number; name: string; self: number }[] = [];
  let busyUs = 0;
  const pop = (): void => {
    const done = stack.pop()!;
    byName.set(done.name, (byName.get(done.name) ?? 0) + done.self);
  };
  for (const event of sorted) {
    while (stack.length > 0 && stack.at(-1)!.end <= event.ts) pop();
    const parent = stack.at(-1);
    const end = event.ts + event.dur!;
    if (parent) parent.self -= Math.min(event.dur!, parent.end - event.ts);
    else busyUs += event.dur!;
    stack.push({ end, name: event.name, self: event.dur! });
  }
  while (stack.length > 0) pop();
  return { byName, busyUs };
}

/** Chromium's names for the kinds of main-thread work, as DevTools' performance panel shows them. */
const kindNames: Record<string, string> = {
  FunctionCall: 'script (function calls)',
  EvaluateScript: 'script (evaluate)',
  'v8.callFunction': 'script (function calls)',
  'v8.run': 'script',
  TimerFire: 'script (timers)',
  FireAnimationFrame: 'script (animation frame callbacks)',
  EventDispatch: 'script (DOM events)',
  RunMicrotasks: 'script (microtasks)',
  UpdateLayoutTree: 'style recalculation',
  Layout: 'layout',
  PrePaint: 'pre-paint',
  Paint: 'paint',
  PaintImage: 'paint',
  Layerize: 'layerize',
  UpdateLayer: 'layerize',
  Commit: 'commit to the compositor',
  HitTest: 'hit testing',
  MinorGC: 'garbage collection',
  MajorGC: 'garbage collection',
  'V8.GC_SCAVENGER': 'garbage collection',
  'V8.GC_MARK_COMPACTOR': 'garbage collection',
  'V8.GCScavenger': 'garbage collection',
  'V8.GCFinalizeMC': 'garbage collection',
  ParseHTML: 'HTML parsing',
  'LocalFrameView::performLayout': 'layout',
  'Document::recalcStyle': 'style recalculation',
  'Document::updateStyle': 'style recalculation',
  'Blink.ForcedStyleAndLayout.UpdateTime': 'layout',
  'LocalFrameView::RunPrePaintLifecyclePhase': 'pre-paint',
  'Blink.PrePaint.UpdateTime': 'pre-paint',
  'Blink.Paint.UpdateTime': 'paint',
  'InlineNode::ShapeTextIncludingFirstLine': 'layout (text shaping)',
  'Canvas2DResourceProvider::ProduceCanvasResource': 'canvas (producing the frame)',
  'V8.GC_SCAVENGER_SCAVENGE_PARALLEL': 'garbage collection',
  'Receive mojo message': 'messages from the browser process (IPC)',
  'SimpleWatcher::OnHandleReady': 'messages from the browser process (IPC)',
  'ThreadControllerImpl::RunTask': 'task overhead (not in a named event)',
  RunTask: 'task overhead (not in a named event)',
};

const r = (n: number): number => Math.round(n);
const share = (ms: number, windowMs: number): number => Math.round((ms / windowMs) * 1000) / 1000;

function top(map: Map<string, number>, windowMs: number, limit: number): Share[] {
  return [...map.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, limit)
    .map(([name, ms]) => ({ name, ms: r(ms), share: share(ms, windowMs) }));
}

async function trace(
  client: CDPSession,
  windowMs: number,
): Promise<{ byKind: Map<string, number>; busyMs: number; spanMs: number }> {
  const events: TraceEvent[] = [];
  client.on('Tracing.dataCollected', (payload) => {
    events.push(...(payload.value as unknown as TraceEvent[]));
  });
  const complete = new Promise<void>((resolve) =>
    client.once('Tracing.tracingComplete', () => resolve()),
  );
  await client.send('Tracing.start', {
    transferMode: 'ReportEvents',
    traceConfig: {
      includedCategories: [
        'devtools.timeline',
        'disabled-by-default-devtools.timeline',
        'v8',
        'blink',
        'toplevel',
      ],
    },
  });
  await new Promise((wait) => setTimeout(wait, windowMs));
  await client.send('Tracing.end');
  await complete;
  // The renderer's main thread: the CrRendererMain with the most events.
  const mainThreads = events.filter(
    (e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain',
  );
  let best: TraceEvent[] = [];
  for (const thread of mainThreads) {
    const mine = events.filter((e) => e.pid === thread.pid && e.tid === thread.tid);
    if (mine.length > best.length) best = mine;
  }
  const { byName, busyUs } = selfTimes(best);
  const timed = best.filter((e) => e.ph === 'X' && typeof e.dur === 'number');
  const spanUs =
    timed.length === 0
      ? windowMs * 1000
      : Math.max(...timed.map((e) => e.ts + e.dur!)) - Math.min(...timed.map((e) => e.ts));
  const byKind = new Map<string, number>();
  for (const [name, us] of byName) {
    const kind = kindNames[name] ?? `other: ${name}`;
    byKind.set(kind, (byKind.get(kind) ?? 0) + us / 1000);
  }
  return { byKind, busyMs: busyUs / 1000, spanMs: Math.max(spanUs / 1000, windowMs) };
}

// --- Source maps: just enough to name the file a position of the bundle came from.

const base64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const digit = new Map([...base64].map((c, i) => [c, i]));

interface Segment {
  column: number;
  source: number;
  line: number;
}

class SourceMap {
  private readonly lines: Segment[][] = [];

  constructor(
    private readonly sources: string[],
    mappings: string,
  ) {
    let source = 0;
    let sourceLine = 0;
    let sourceColumn = 0;
    let name = 0;
    for (const line of mappings.split(';')) {
      const segments: Segment[] = [];
      let column = 0;
      for (const text of line.split(',')) {
        if (!text) continue;
        const values: number[] = [];
        let value = 0;
        let shift = 0;
        for (const c of text) {
          const d = digit.get(c)!;
          value += (d & 31) << shift;
          if (d & 32) shift += 5;
          else {
            values.push(value & 1 ? -(value >>> 1) : value >>> 1);
            value = 0;
            shift = 0;
          }
        }
        column += values[0]!;
        if (values.length >= 4) {
          source += values[1]!;
          sourceLine += values[2]!;
          sourceColumn += values[3]!;
          if (values.length >= 5) name += values[4]!;
          segments.push({ column, source, line: sourceLine });
        }
      }
      this.lines.push(segments);
    }
    void sourceColumn;
    void name;
  }

  /** The original file and line of a 0-based generated line and column, if mapped. */
  lookup(line: number, column: number): { file: string; line: number } | null {
    const segments = this.lines[line];
    if (!segments || segments.length === 0) return null;
    let found: Segment | null = null;
    for (const segment of segments) {
      if (segment.column > column) break;
      found = segment;
    }
    found ??= segments[0]!;
    const file = this.sources[found.source];
    return file ? { file, line: found.line + 1 } : null;
  }
}

/** `node_modules/.pnpm/x/node_modules/@scope/pkg/…` → `@scope/pkg`; web sources → `web/src/…`. */
function origin(file: string): string {
  const at = file.lastIndexOf('node_modules/');
  if (at >= 0) {
    const parts = file.slice(at + 'node_modules/'.length).split('/');
    return parts[0]!.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!;
  }
  const src = file.indexOf('src/');
  const packages = file.match(/packages\/([^/]+)\//);
  if (packages) return `@locus/${packages[1]}`;
  return src >= 0 ? `web/${file.slice(src)}` : file.replace(/^(\.\.\/)+/, '');
}

interface ProfileNode {
  id: number;
  callFrame: {
    functionName: string;
    url: string;
    lineNumber: number;
    columnNumber: number;
  };
}

async function cpuProfile(
  client: CDPSession,
  windowMs: number,
): Promise<{ bySource: Map<string, number>; byFunction: Map<string, number>; spanMs: number }> {
  await client.send('Profiler.enable');
  await client.send('Profiler.setSamplingInterval', { interval: 500 });
  await client.send('Profiler.start');
  await new Promise((wait) => setTimeout(wait, windowMs));
  const { profile } = (await client.send('Profiler.stop')) as unknown as {
    profile: {
      nodes: ProfileNode[];
      samples: number[];
      timeDeltas: number[];
      startTime: number;
      endTime: number;
    };
  };
  await client.send('Profiler.disable');
  const selfUs = new Map<number, number>();
  profile.samples.forEach((id, i) => {
    selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i + 1] ?? 0));
  });
  const maps = new Map<string, SourceMap | null>();
  const mapFor = async (url: string): Promise<SourceMap | null> => {
    if (!maps.has(url)) {
      try {
        const response = await fetch(`${url}.map`);
        const json = (await response.json()) as { sources: string[]; mappings: string };
        maps.set(url, new SourceMap(json.sources, json.mappings));
      } catch {
        maps.set(url, null);
      }
    }
    return maps.get(url)!;
  };
  const bySource = new Map<string, number>();
  const byFunction = new Map<string, number>();
  for (const node of profile.nodes) {
    const us = selfUs.get(node.id);
    if (!us) continue;
    const { url, functionName, lineNumber, columnNumber } = node.callFrame;
    let source: string;
    let where: string;
    if (!url) {
      // (program): native work outside script (style, layout, paint); (garbage collector); (idle).
      source = functionName.startsWith('(') ? functionName : `native ${functionName}`;
      where = source;
    } else if (/^https?:/.test(url) && url.endsWith('.js')) {
      const mapped = (await mapFor(url))?.lookup(lineNumber, columnNumber);
      source = mapped ? origin(mapped.file) : new URL(url).pathname;
      where = mapped
        ? `${origin(mapped.file)} ${mapped.file.split('/').pop()}:${mapped.line} (${functionName || 'anonymous'})`
        : `${new URL(url).pathname} (${functionName || 'anonymous'})`;
    } else {
      source = url;
      where = `${url} (${functionName})`;
    }
    bySource.set(source, (bySource.get(source) ?? 0) + us / 1000);
    byFunction.set(where, (byFunction.get(where) ?? 0) + us / 1000);
  }
  return { bySource, byFunction, spanMs: (profile.endTime - profile.startTime) / 1000 };
}

/** A trace, then a CPU profile, each over `windowMs`, of the page behind `client`. */
export async function attribute(client: CDPSession, windowMs: number): Promise<Attribution> {
  const traced = await trace(client, windowMs);
  const profiled = await cpuProfile(client, windowMs);
  profiled.bySource.delete('(idle)');
  const seconds = (ms: number): number => Math.round(ms / 100) / 10;
  return {
    windowSeconds: seconds(traced.spanMs),
    profileSeconds: seconds(profiled.spanMs),
    busyShare: share(traced.busyMs, traced.spanMs),
    byKind: top(traced.byKind, traced.spanMs, 12),
    bySource: top(profiled.bySource, profiled.spanMs, 12),
    byFunction: top(
      new Map([...profiled.byFunction].filter(([name]) => name !== '(idle)')),
      profiled.spanMs,
      15,
    ),
  };
}
