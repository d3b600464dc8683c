import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stepProfileDir, type Instance } from '../servers';

const sleep = (ms: number): Promise<void> => new Promise((done) => setTimeout(done, ms));

/** The ramp steps to profile (BENCH_PROFILE_RAMP=3000,4500), in fixes/s. */
export function profiledRampSteps(): Set<number> {
  return new Set(
    (process.env.BENCH_PROFILE_RAMP ?? '')
      .split(',')
      .map((value) => Number(value.trim()))
      .filter((value) => Number.isFinite(value) && value > 0),
  );
}

/**
 * Runs one step with every instance's CPU profiler on (profiling/preload.ts), and writes what the
 * summary needs to turn milliseconds into µs per fix: `<label>.json` with the fixes the step sent
 * and how long the profiles ran.
 */
export async function profiledStep<T extends { sentTotal: number }>(
  pipeline: string,
  label: string,
  instances: Instance[],
  run: () => Promise<T>,
): Promise<T> {
  const dir = stepProfileDir();
  if (!dir) return run();
  mkdirSync(dir, { recursive: true });
  const name = `${pipeline}-${label}`;
  writeFileSync(join(dir, 'label'), name);
  const done = instances.map((instance) => join(dir, `${name}-${instance.name}.done`));
  for (const file of done) rmSync(file, { force: true });
  for (const instance of instances) instance.signal('SIGUSR2');
  const started = Date.now();
  const outcome = await run();
  for (const instance of instances) instance.signal('SIGUSR2');
  const seconds = (Date.now() - started) / 1000;
  const deadline = Date.now() + 30_000;
  while (!done.every((file) => existsSync(file)) && Date.now() < deadline) await sleep(100);
  writeFileSync(
    join(dir, `${name}.json`),
    JSON.stringify({
      pipeline,
      label,
      fixes: outcome.sentTotal,
      seconds,
      instances: instances.map((i) => i.name),
    }),
  );
  console.log(`[bench] ${pipeline}: profiled ${label} → ${dir}/${name}-*.cpuprofile`);
  return outcome;
}
