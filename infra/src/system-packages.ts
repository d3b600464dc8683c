import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

function which(binary: string): string | undefined {
  const result = spawnSync('sh', ['-c', `command -v ${binary}`], { encoding: 'utf8' });
  const path = result.stdout.trim();
  return result.status === 0 && path ? path : undefined;
}

let aptUpdated = false;

/**
 * Finds a binary from a Debian package, installing the package when it is missing and we are
 * root (as on a fresh CI machine). Otherwise explains what to install and stops.
 */
export function ensureDebianBinary(
  binary: string,
  debianPackage: string,
  candidates: string[] = [],
): string {
  const found = [...candidates.filter((path) => existsSync(path)), which(binary)].find(Boolean);
  if (found) return found;
  if (process.getuid?.() !== 0) {
    throw new Error(
      `${binary} is not installed. Install Debian's ${debianPackage} package ` +
        `(sudo apt-get install -y ${debianPackage}) or set the matching URL variable to use an external service.`,
    );
  }
  console.log(`[locus] installing Debian's ${debianPackage} …`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  if (!aptUpdated) {
    spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
    aptUpdated = true;
  }
  const install = spawnSync('apt-get', ['install', '-y', '-qq', debianPackage], {
    stdio: 'inherit',
    env,
  });
  const path = which(binary);
  if (install.status !== 0 || !path) throw new Error(`could not install ${debianPackage}`);
  return path;
}

export const ensureRedisServer = (): string => ensureDebianBinary('redis-server', 'redis-server');
export const ensureChromium = (): string =>
  ensureDebianBinary('chromium', 'chromium', ['/usr/bin/chromium']);
