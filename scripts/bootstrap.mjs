#!/usr/bin/env node
// Runs before anything is installed, so it may use Node built-ins only.
// It installs the workspace with the pinned pnpm, then hands over to the TypeScript entry
// point for the requested command (infra/src/cli.ts).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, writeFileSync, mkdirSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PNPM_VERSION = '10.34.9';
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const command = process.argv[2];
const args = process.argv.slice(3);

const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 20 || (major === 20 && minor < 19)) {
  console.error(`Locus needs Node 20.19 or newer; this is ${process.versions.node}.`);
  process.exit(1);
}

function pnpmCommand() {
  const probe = spawnSync('pnpm', ['--version'], { encoding: 'utf8', shell: false });
  if (probe.status === 0 && probe.stdout.trim() === PNPM_VERSION) return ['pnpm', []];
  return ['npx', ['-y', `pnpm@${PNPM_VERSION}`]];
}

function run(cmd, cmdArgs, extraEnv = {}) {
  const result = spawnSync(cmd, cmdArgs, {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, ...extraEnv },
  });
  if (result.error) throw result.error;
  return result.status ?? 1;
}

// Install only when the lockfile or a manifest changed since the last successful install:
// `npm start` should be instant the second time.
function installFingerprint() {
  const hash = createHash('sha256');
  const manifests = ['packages', 'services'].flatMap((group) =>
    existsSync(join(root, group))
      ? readdirSync(join(root, group)).map((name) => join(group, name, 'package.json'))
      : [],
  );
  const files = ['pnpm-lock.yaml', 'pnpm-workspace.yaml', 'package.json', '.npmrc', ...manifests];
  for (const file of [
    ...files,
    'web/package.json',
    'infra/package.json',
    'tests/package.json',
    'bench/package.json',
  ]) {
    const path = join(root, file);
    if (existsSync(path)) hash.update(readFileSync(path));
  }
  return hash.digest('hex');
}

const [pnpm, pnpmPrefix] = pnpmCommand();
const stamp = join(root, 'node_modules', '.locus-install');
const fingerprint = installFingerprint();
const installed = existsSync(stamp) && readFileSync(stamp, 'utf8') === fingerprint;
if (!installed) {
  // CI must install exactly what the lockfile says; on a developer's machine a changed
  // manifest updates the lockfile, to be committed with it.
  const frozen = process.env.CI ? ['--frozen-lockfile'] : [];
  console.log(`[locus] installing dependencies with pnpm ${PNPM_VERSION} …`);
  const status = run(pnpm, [...pnpmPrefix, 'install', ...frozen], { CI: process.env.CI ?? '' });
  if (status !== 0) process.exit(status);
  mkdirSync(join(root, 'node_modules'), { recursive: true });
  writeFileSync(stamp, installFingerprint());
}

if (!command || command === 'install') process.exit(0);

// Hand over to the TypeScript CLI and stay alive until it exits: on Ctrl-C it stops what it
// started (apps first, then Postgres and Redis), and it must not be orphaned halfway.
// `node --import tsx`, not the tsx CLI: that wrapper SIGKILLs a child that takes a moment to
// acknowledge a signal, which would cut a graceful shutdown short.
const child = spawn(
  process.execPath,
  ['--import', 'tsx', join(root, 'infra', 'src', 'cli.ts'), command, ...args],
  {
    cwd: root,
    stdio: 'inherit',
  },
);
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    // A terminal's Ctrl-C reaches the whole group already; a signal sent to us alone is passed on.
    if (child.exitCode === null) child.kill(signal);
  });
}
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
