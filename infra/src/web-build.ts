import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './paths';
import { run } from './processes';

const webRoot = join(repoRoot, 'web');
export const webDist = join(webRoot, 'dist');

function newestMtime(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newestMtime(join(path, name))));
}

/** Builds the web app with Vite unless the build is newer than every source it comes from. */
export async function buildWebIfStale(force = false): Promise<void> {
  const built = newestMtime(join(webDist, 'index.html'));
  // Both HTML entries, and build/ (the precompression plugin) because its output is part of dist.
  const sources = ['src', 'index.html', 'share.html', 'vite.config.ts', 'build', 'public']
    .map((entry) => newestMtime(join(webRoot, entry)))
    .concat(newestMtime(join(repoRoot, 'packages', 'contract', 'src')));
  if (!force && built > Math.max(...sources)) return;
  console.log('[locus] building the web app …');
  const code = await run(
    join(webRoot, 'node_modules', '.bin', 'vite'),
    ['build', '--logLevel', 'warn'],
    {},
    webRoot,
  );
  if (code !== 0) throw new Error(`web build failed (exit ${code})`);
}
