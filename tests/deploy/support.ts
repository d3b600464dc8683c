import { execFile, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ensureDebianBinary } from '../../infra/src/system-packages';

export const repoRoot = join(import.meta.dirname, '..', '..');
export const deployDir = join(repoRoot, 'deploy');
export const chartDir = join(deployDir, 'helm', 'locus');
const run = promisify(execFile);

/** Debian's Go library packages the renderer is built from, and a file that shows each is there. */
const goLibraries: Record<string, string> = {
  'golang-github-masterminds-sprig-dev':
    '/usr/share/gocode/src/github.com/Masterminds/sprig/functions.go',
  'golang-k8s-sigs-yaml-dev': '/usr/share/gocode/src/sigs.k8s.io/yaml/yaml.go',
};

/**
 * Go 1.19 and the libraries Helm renders with (Sprig v3, sigs.k8s.io/yaml), from Debian: as for
 * Chromium and redis-server, installed when missing and we are root (a fresh CI machine),
 * otherwise named.
 */
function ensureGoToolchain(): string {
  const go = ensureDebianBinary('go', 'golang-go', ['/usr/bin/go']);
  const missing = Object.entries(goLibraries)
    .filter(([, file]) => !existsSync(file))
    .map(([name]) => name);
  if (missing.length > 0) {
    if (process.getuid?.() !== 0)
      throw new Error(`the chart test needs Debian's ${missing.join(' ')} (apt-get install -y …)`);
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
    const install = spawnSync(
      'apt-get',
      ['install', '-y', '-qq', '--no-install-recommends', ...missing],
      { stdio: 'inherit', env },
    );
    if (install.status !== 0) throw new Error(`could not install ${missing.join(' ')}`);
  }
  return go;
}

/**
 * Builds tests/deploy/helm-render (Helm's rendering core on Go's text/template and Sprig) once
 * per version of its source, under .data/, and returns the binary's path.
 */
export async function helmRenderer(): Promise<string> {
  const source = join(import.meta.dirname, 'helm-render', 'main.go');
  const hash = createHash('sha256').update(readFileSync(source)).digest('hex').slice(0, 12);
  const dir = join(repoRoot, '.data', 'helm-render');
  const binary = join(dir, `helm-render-${hash}`);
  if (existsSync(binary)) return binary;
  const go = ensureGoToolchain();
  mkdirSync(dir, { recursive: true });
  const partial = `${binary}.${process.pid}`;
  // GOPATH mode against Debian's /usr/share/gocode: no module download, nothing from the network.
  await run(go, ['build', '-o', partial, source], {
    env: {
      ...process.env,
      GO111MODULE: 'off',
      GOPATH: '/usr/share/gocode',
      GOFLAGS: '',
      GOCACHE: join(dir, 'go-cache'),
    },
    timeout: 300_000,
  });
  renameSync(partial, binary);
  return binary;
}

/** The names a `.env.example`-style file sets, commented out (`# NAME=`) or not. */
export function envFileNames(text: string): string[] {
  return [...text.matchAll(/^#? ?([A-Z][A-Z0-9_]*)=/gm)].map((match) => match[1]!);
}
