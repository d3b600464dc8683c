import { readFileSync, readdirSync } from 'node:fs';

/** USER_HZ: the unit of utime/stime in /proc/<pid>/stat; fixed at 100 in Linux's ABI. */
const ticksPerSecond = 100;

/** Fields of /proc/<pid>/stat after the command name, which may itself contain spaces. */
export function statFields(pid: number): string[] {
  const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return text.slice(text.lastIndexOf(')') + 2).split(' ');
}

/**
 * `pid` and all its descendants. A server started through the `tsx` wrapper runs in a child
 * node process, so measuring only the pid we spawned would measure the wrapper.
 */
export function processTree(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // Field 4 of stat is the parent pid; index 1 once the pid and name are cut off.
      const parent = Number(statFields(Number(entry))[1]);
      children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
    } catch {
      // The process exited while we were listing.
    }
  }
  const tree: number[] = [];
  const visit = (p: number): void => {
    tree.push(p);
    for (const child of children.get(p) ?? []) visit(child);
  };
  visit(pid);
  return tree;
}

/** User plus system CPU time of each process still running, in microseconds. */
export function cpuMicrosByPid(pids: number[]): Map<number, number> {
  const byPid = new Map<number, number>();
  for (const pid of pids) {
    try {
      const fields = statFields(pid);
      // utime and stime are fields 14 and 15 of stat: indexes 11 and 12 here.
      byPid.set(pid, ((Number(fields[11]) + Number(fields[12])) * 1_000_000) / ticksPerSecond);
    } catch {
      // exited
    }
  }
  return byPid;
}

/**
 * CPU time used between two samples, counting only processes alive at both: a Postgres
 * backend that exited in between would otherwise make the difference negative.
 */
export function cpuMicrosBetween(start: Map<number, number>, end: Map<number, number>): number {
  let total = 0;
  for (const [pid, micros] of end) {
    const before = start.get(pid);
    if (before !== undefined) total += micros - before;
  }
  return total;
}

/** Resident set size of the processes, in KiB. */
export function rssKiB(pids: number[]): number {
  let total = 0;
  for (const pid of pids) {
    const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    total += Number(match?.[1] ?? 0);
  }
  return total;
}

/**
 * CPU time all cores spent busy (anything but idle and iowait), in microseconds. Compared
 * with what the servers and the generator used, it shows how much else ran during a step:
 * Redis, Postgres, and anything else sharing the machine.
 */
export function machineBusyMicros(): number {
  const line = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0] ?? '';
  // cpu user nice system idle iowait irq softirq steal …
  const [user, nice, system, , , irq, softirq, steal] = line
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  const busy = [user, nice, system, irq, softirq, steal].reduce<number>(
    (sum, v) => sum + (v ?? 0),
    0,
  );
  return (busy * 1_000_000) / ticksPerSecond;
}
