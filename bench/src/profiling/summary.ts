// Where each microsecond per fix goes: reads the ramp-step profiles that BENCH_PROFILE_RAMP wrote
// (profiling/steps.ts) and prints, per step and instance, self time by category in µs per fix
// sent, and the functions that cost most. Self time, not inclusive: every sample counts once.
//
//   node --import tsx bench/src/profiling/summary.ts [dir]      (default .data/bench/profiles)
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { stepProfileDir } from '../servers';
import { repoRoot } from '../paths';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}
interface StepInfo {
  pipeline: string;
  label: string;
  fixes: number;
  seconds: number;
  instances: string[];
}

/** Ordered: the first rule that matches names the category. */
const categories: [name: string, matches: (url: string, fn: string) => boolean][] = [
  ['idle', (_url, fn) => fn === '(idle)'],
  ['garbage collection', (_url, fn) => fn === '(garbage collector)'],
  ['V8/native, unattributed', (_url, fn) => fn === '(program)'],
  ['validation (zod)', (url) => url.includes('/zod/')],
  [
    'Redis client (ioredis)',
    (url) => /\/(ioredis|redis-parser|denque|cluster-key-slot)\//.test(url),
  ],
  [
    'Postgres client (pg, kysely)',
    (url) => /\/(pg|pg-protocol|pg-pool|pg-types|kysely)\//.test(url),
  ],
  ['WebSocket (ws)', (url) => url.includes('/ws/')],
  ['logging (pino)', (url) => /\/(pino|sonic-boom|thread-stream)\//.test(url)],
  ['HTTP (fastify)', (url) => /\/(fastify|find-my-way|light-my-request|avvio)/.test(url)],
  ['metrics (prom-client)', (url) => url.includes('/prom-client/')],
  ['Locus realtime', (url) => url.includes('/modules/realtime/')],
  ['Locus, other', (url) => url.includes('/services/api/src/') || url.includes('/packages/')],
  ['JSON', (url, fn) => url === '' && (fn === 'parse' || fn === 'stringify')],
  [
    'socket writes (native)',
    (url, fn) => url === '' && /^(writev|writeUtf8String|writeBuffer|writeLatin1String)$/.test(fn),
  ],
  ['Node core (streams, net, events, timers)', (url) => url.startsWith('node:')],
  ['native, other', (url) => url === ''],
  ['other modules', () => true],
];

function categoryOf(node: ProfileNode, profiler: Set<number>): string {
  if (profiler.has(node.id)) return 'the profiler itself (stopping)';
  const { url, functionName } = node.callFrame;
  return categories.find(([, matches]) => matches(url, functionName))![0];
}

/**
 * Nodes under the inspector session: stopping the profiler builds the profile while it still
 * samples, and that is no cost of the server's.
 */
function profilerNodes(profile: CpuProfile): Set<number> {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const found = new Set<number>();
  const mark = (id: number): void => {
    if (found.has(id)) return;
    found.add(id);
    for (const child of byId.get(id)?.children ?? []) mark(child);
  };
  for (const node of profile.nodes)
    if (/inspector|profiling\/preload/.test(node.callFrame.url)) mark(node.id);
  return found;
}

function selfTimes(profile: CpuProfile): Map<number, number> {
  const times = new Map<number, number>();
  profile.samples.forEach((id, index) => {
    times.set(id, (times.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0));
  });
  return times; // µs per node id
}

function shortUrl(url: string): string {
  return url
    .replace(/^file:\/\//, '')
    .replace(repoRoot, '')
    .replace(/.*node_modules\//, '');
}

function summarise(profile: CpuProfile, fixes: number): string[] {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const perCategory = new Map<string, number>();
  const perFunction = new Map<string, number>();
  const profiler = profilerNodes(profile);
  let busy = 0;
  for (const [id, micros] of selfTimes(profile)) {
    const node = byId.get(id);
    if (!node) continue;
    const category = categoryOf(node, profiler);
    perCategory.set(category, (perCategory.get(category) ?? 0) + micros);
    if (category === 'idle' || profiler.has(id)) continue;
    busy += micros;
    const { functionName, url, lineNumber } = node.callFrame;
    const key = `${functionName || '(anonymous)'} ${url ? `${shortUrl(url)}:${lineNumber + 1}` : ''}`;
    perFunction.set(key, (perFunction.get(key) ?? 0) + micros);
  }
  const perFix = (micros: number) => (micros / fixes).toFixed(1);
  const lines = [
    `busy ${perFix(busy)} µs per fix (${(busy / 1e3).toFixed(0)} ms over ${fixes} fixes)`,
    '',
    '| category | µs per fix | share of busy |',
    '| --- | ---: | ---: |',
  ];
  for (const [category, micros] of [...perCategory].sort((a, b) => b[1] - a[1])) {
    if (category === 'idle' || category.startsWith('the profiler')) continue;
    lines.push(`| ${category} | ${perFix(micros)} | ${((100 * micros) / busy).toFixed(1)} % |`);
  }
  lines.push('', '| function (self time) | µs per fix |', '| --- | ---: |');
  for (const [name, micros] of [...perFunction].sort((a, b) => b[1] - a[1]).slice(0, 20)) {
    lines.push(`| \`${name.trim()}\` | ${perFix(micros)} |`);
  }
  return lines;
}

const dir = process.argv[2] ?? stepProfileDir() ?? join(repoRoot, '.data', 'bench', 'profiles');
const steps = readdirSync(dir)
  .filter((file) => file.endsWith('.json'))
  .map((file) => JSON.parse(readFileSync(join(dir, file), 'utf8')) as StepInfo);
for (const step of steps) {
  console.log(`\n## ${step.pipeline}, ${step.label}: ${step.fixes} fixes in ${step.seconds} s\n`);
  for (const instance of step.instances) {
    const file = join(dir, `${step.pipeline}-${step.label}-${instance}.cpuprofile`);
    const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
    console.log(`### ${instance}\n`);
    console.log(summarise(profile, step.fixes).join('\n'));
    console.log('');
  }
}
