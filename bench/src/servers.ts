import { spawn, type ChildProcess } from 'node:child_process';
import { openSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../infra/src/free-port';
import { repoRoot } from './paths';
import type { HeapReading, HeapReply, HeapRequest } from './profiling/heap-messages';
import { processTree } from './proc';

/** One server instance (Locus API or a relay) running as a child process. */
export interface Instance {
  name: string;
  port: number;
  /** The spawned process and its descendants (the server and any child it starts). */
  pids: number[];
  /** Sends a signal to the server process itself (not to a wrapper). */
  signal(signal: NodeJS.Signals): void;
  /** The server's heap after a forced full GC (profiling/heap-probe.ts). */
  heap(label: string): Promise<HeapReading>;
  stop(): Promise<void>;
}

const stepProfilerPreload = fileURLToPath(new URL('./profiling/preload.ts', import.meta.url));
const heapProbePreload = fileURLToPath(new URL('./profiling/heap-probe.ts', import.meta.url));

/** Where ramp-step profiles go (BENCH_PROFILE_DIR, default .data/bench/profiles), when asked for. */
export function stepProfileDir(): string | undefined {
  if (!process.env.BENCH_PROFILE_RAMP) return undefined;
  return resolve(process.env.BENCH_PROFILE_DIR ?? join(repoRoot, '.data', 'bench', 'profiles'));
}

const running = new Set<ChildProcess>();

const sleep = (ms: number): Promise<void> => new Promise((done) => setTimeout(done, ms));

async function healthy(port: number): Promise<boolean> {
  try {
    const response = await fetch(`http://127.0.0.1:${port}/api/v1/health`);
    await response.arrayBuffer();
    return response.status === 200;
  } catch {
    return false;
  }
}

function tail(path: string): string {
  return readFileSync(path, 'utf8').split('\n').slice(-20).join('\n');
}

/** Starts `entry` with Node and tsx on a free port and waits for GET /api/v1/health to answer 200. */
export async function startInstance(options: {
  name: string;
  entry: string;
  env: Record<string, string>;
  logDir: string;
}): Promise<Instance> {
  const port = await freePort();
  const logPath = join(options.logDir, `${options.name}.log`);
  // Server output goes straight to a file, not through this process's event loop.
  const log = openSync(logPath, 'a');
  // Node itself, not the tsx CLI: the CLI wrapper does not let SIGTERM reach the server's own
  // graceful shutdown. BENCH_CPU_PROF_DIR writes a CPU profile of each instance on exit.
  const profile = process.env.BENCH_CPU_PROF_DIR
    ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF_DIR}`]
    : [];
  // BENCH_PROFILE_RAMP: profiles of chosen ramp steps only (profiling/preload.ts).
  const stepProfiles = stepProfileDir() ? ['--import', stepProfilerPreload] : [];
  // BENCH_SERVER_NODE_FLAGS: V8 or Node flags for every server instance of every pipeline alike,
  // to try a tuning on all of them (e.g. --max-semi-space-size=32).
  const nodeFlags = (process.env.BENCH_SERVER_NODE_FLAGS ?? '').split(/\s+/).filter(Boolean);
  const child = spawn(
    process.execPath,
    [
      ...nodeFlags,
      ...profile,
      '--import',
      'tsx',
      ...stepProfiles,
      '--import',
      heapProbePreload,
      options.entry,
    ],
    {
      cwd: repoRoot,
      env: {
        ...process.env,
        ...options.env,
        PORT: String(port),
        BENCH_INSTANCE: options.name,
        ...(stepProfileDir() ? { BENCH_PROFILE_DIR: stepProfileDir() } : {}),
      },
      // The IPC channel carries only the heap probe's questions and answers.
      stdio: ['ignore', log, log, 'ipc'],
    },
  );
  let nextHeapId = 1;
  running.add(child);
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  child.once('exit', () => running.delete(child));

  const deadline = Date.now() + 60_000;
  while (!(await healthy(port))) {
    if (child.exitCode !== null || child.signalCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${options.name} did not become healthy; last log lines:\n${tail(logPath)}`);
    }
    await sleep(200);
  }
  const pid = child.pid;
  if (pid === undefined) throw new Error(`${options.name} has no pid`);
  const pids = processTree(pid);
  return {
    name: options.name,
    port,
    pids,
    signal: (signal) => {
      if (child.exitCode === null) child.kill(signal);
    },
    heap: (label) => {
      const id = nextHeapId++;
      return new Promise<HeapReading>((resolve, reject) => {
        // A snapshot of a few hundred MB takes seconds; a server that died never answers.
        const timer = setTimeout(() => {
          child.off('message', onReply);
          reject(new Error(`${options.name}: the heap probe did not answer within 120 s`));
        }, 120_000);
        const onReply = (reply: HeapReply): void => {
          if (reply.id !== id) return;
          clearTimeout(timer);
          child.off('message', onReply);
          if (reply.type === 'heap') resolve(reply);
          else reject(new Error(`${options.name}: heap probe failed: ${reply.message}`));
        };
        child.on('message', onReply);
        const request: HeapRequest = { type: 'heap', id, label };
        // A server that already died has no channel: fail this reading, not the whole bench.
        child.send(request, (error) => {
          if (!error) return;
          clearTimeout(timer);
          child.off('message', onReply);
          reject(new Error(`${options.name}: could not ask for the heap: ${error.message}`));
        });
      });
    },
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      const timedOut = await Promise.race([
        exited.then(() => false),
        sleep(10_000).then(() => true),
      ]);
      // Killing only the wrapper would orphan the server under it.
      if (timedOut) killTree(pids);
      await exited;
    },
  };
}

function killTree(pids: number[]): void {
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}

/** Last resort when the orchestrator itself is exiting: no server may outlive the bench. */
export function killAllInstances(): void {
  for (const child of running) {
    if (child.pid !== undefined) killTree(processTree(child.pid));
  }
}
