import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { alive } from './stale-process';

/**
 * One `npm start` per data folder. A second one would take the first's Postgres and Redis for
 * "left running by an earlier run" and stop them under the first's API and worker; so it
 * refuses instead, naming the pid to stop. A lock whose owner is gone (killed outright) is taken.
 */
export function claimRunLock(dataRoot: string): { release: () => void } {
  mkdirSync(dataRoot, { recursive: true });
  const file = join(dataRoot, 'start.pid');
  if (existsSync(file)) {
    const owner = Number(readFileSync(file, 'utf8').trim());
    if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && alive(owner)) {
      throw new Error(
        `Locus is already running from this folder (pid ${owner}). Stop it (Ctrl-C in its terminal, or kill -INT ${owner}) and try again.`,
      );
    }
  }
  writeFileSync(file, String(process.pid));
  return {
    release: () => {
      if (existsSync(file) && readFileSync(file, 'utf8').trim() === String(process.pid)) {
        rmSync(file, { force: true });
      }
    },
  };
}
