import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

const repoRoot = join(import.meta.dirname, '..', '..');

export interface WorkerProcess {
  child: ChildProcess;
  exited: Promise<number | null>;
  /** `kill -9`: no shutdown hook runs, jobs in hand are left as they are. */
  kill(): Promise<void>;
  /** SIGTERM, as a process manager would send, and wait for the exit. */
  stop(): Promise<number | null>;
}

/** The worker as deployed, in its own OS process: `node --import tsx services/worker/src/main.ts`. */
export function startWorkerProcess(env: Record<string, string>): WorkerProcess {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(repoRoot, 'services/worker/src/main.ts')],
    {
      cwd: repoRoot,
      env: { ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'error', ...env },
      stdio: ['ignore', 'inherit', 'inherit'],
    },
  );
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  return {
    child,
    exited,
    kill: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}

/** Prints a scenario's figures where `npm run test:faults` shows them, and returns them. */
export function report<T extends Record<string, unknown>>(scenario: string, figures: T): T {
  console.warn(`[faults] ${scenario}: ${JSON.stringify(figures)}`);
  return figures;
}
