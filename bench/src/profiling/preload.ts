// Loaded into each server instance (`--import`) when BENCH_PROFILE_RAMP is set: a CPU profile of
// one ramp step at a time, not of the whole run (whose connects, latency steps and shutdown would
// drown the step being asked about). The orchestrator writes the step's label to `label` in the
// profile directory and sends SIGUSR2 to start; the second SIGUSR2 stops and writes
// `<label>-<instance>.cpuprofile`, then `<label>-<instance>.done` so the orchestrator knows.
import { writeFileSync, readFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';

const dir = process.env.BENCH_PROFILE_DIR;
const instance = process.env.BENCH_INSTANCE ?? String(process.pid);

if (dir) {
  const session = new Session();
  session.connect();
  let running = false;
  let busy: Promise<void> = Promise.resolve();

  const toggle = async (): Promise<void> => {
    if (!running) {
      running = true;
      await session.post('Profiler.enable');
      // 200 µs: fine enough for per-fix costs of a few µs, coarse enough not to be the load.
      await session.post('Profiler.setSamplingInterval', { interval: 200 });
      await session.post('Profiler.start');
      return;
    }
    running = false;
    const { profile } = await session.post('Profiler.stop');
    const label = readFileSync(join(dir, 'label'), 'utf8').trim();
    writeFileSync(join(dir, `${label}-${instance}.cpuprofile`), JSON.stringify(profile));
    writeFileSync(join(dir, `${label}-${instance}.done`), '');
  };

  process.on('SIGUSR2', () => {
    busy = busy.then(toggle).catch((error: unknown) => {
      console.error('[bench profile] failed:', error);
    });
  });
}
