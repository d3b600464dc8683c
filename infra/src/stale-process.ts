import { existsSync, readFileSync, rmSync } from 'node:fs';

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * A previous run that was killed outright leaves its database server running (they run in
 * their own process group). Stop it by the pid its pid file names, so this run can start.
 */
export async function stopStaleServer(
  pidFile: string,
  name: string,
  signal: NodeJS.Signals,
): Promise<void> {
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
  if (!Number.isInteger(pid) || pid <= 0 || !alive(pid)) return;
  console.warn(`[locus] stopping ${name} left running by an earlier run (pid ${pid})`);
  process.kill(pid, signal);
  const deadline = Date.now() + 30_000;
  while (alive(pid) && Date.now() < deadline) await new Promise((wait) => setTimeout(wait, 100));
  if (alive(pid)) throw new Error(`${name} (pid ${pid}) did not stop; stop it and try again`);
  rmSync(pidFile, { force: true });
}
