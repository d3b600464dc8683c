// The fix validator on its own: zod's `CallerFix.safeParse` (the old path of `checkFix`) against
// the hand-written `parseCallerFix` (the new one), and `checkFix` as a whole. No servers, no
// stores: run it on a quiet machine with
//   node --import tsx bench/src/validator-micro.ts
import { CallerFix } from '@locus/contract';
import { parseCallerFix } from '../../services/api/src/modules/realtime/fast-fix';
import { checkFix } from '../../services/api/src/modules/realtime/fix-validation';

const calls = 1_000_000;
const rounds = 5;
const now = Date.parse('2026-11-22T08:00:00Z');

// Typical fixes as the caller's page sends them (position-fix.ts, numbered by the queue), parsed
// from JSON text as the socket does: many objects of one shape, so nothing is folded away.
const inputs: unknown[] = Array.from({ length: 1024 }, (_, i) =>
  JSON.parse(
    JSON.stringify({
      latitude: 38.9 + i * 1e-5,
      longitude: -77.03 - i * 1e-5,
      accuracy: 8 + (i % 20),
      altitude: 12.5 + (i % 7),
      altitudeAccuracy: 3,
      capturedAt: now - 1_000 - i,
      n: i + 1,
    }),
  ),
);

let sink = 0;
const paths: [string, (data: unknown) => void][] = [
  [
    'zod CallerFix.safeParse (old validator)',
    (data) => {
      if (CallerFix.safeParse(data).success) sink++;
    },
  ],
  [
    'parseCallerFix (new validator)',
    (data) => {
      if (parseCallerFix(data) !== null) sink++;
    },
  ],
  [
    'checkFix, new path (parseCallerFix + the rest)',
    (data) => {
      if (checkFix(data, now).ok) sink++;
    },
  ],
];

function time(run: (data: unknown) => void, count: number): number {
  const start = process.hrtime.bigint();
  for (let i = 0; i < count; i++) run(inputs[i & 1023]);
  return Number(process.hrtime.bigint() - start) / count;
}

for (const [, run] of paths) time(run, 200_000); // warm up, so every path is optimised
const samples = paths.map(() => [] as number[]);
for (let round = 0; round < rounds; round++) {
  paths.forEach(([, run], i) => samples[i]!.push(time(run, calls)));
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;
const ns = samples.map(median);
console.log(
  `${calls.toLocaleString('en')} calls per round, median of ${rounds} rounds, ns per call:`,
);
paths.forEach(([name], i) => console.log(`  ${name.padEnd(50)} ${ns[i]!.toFixed(0)}`));
// The old checkFix was zod's check followed by the same rest as now.
const [zod, fast, check] = ns as [number, number, number];
console.log(
  `  ${'checkFix, old path (zod + the rest), derived'.padEnd(50)} ${(check - fast + zod).toFixed(0)}`,
);
if (sink !== (rounds * calls + 200_000) * paths.length)
  throw new Error('a typical fix was refused');
