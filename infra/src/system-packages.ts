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
/** The load balancer of the fault and deploy tests (and of deploy/compose.yaml). */
export const ensureHaproxy = (): string =>
  ensureDebianBinary('haproxy', 'haproxy', ['/usr/sbin/haproxy']);
/** The TURN server of the video path (issue 19). */
export const ensureCoturn = (): string =>
  ensureDebianBinary('turnserver', 'coturn', ['/usr/bin/turnserver']);

/** Debian's packages of the offline chat translation (Apertium with the pairs Locus uses). */
const apertiumPackages = ['apertium', 'apertium-eng-spa', 'apertium-fr-es'];
/** A mode file of each pair package: how to tell that the pair is there without running it. */
const apertiumModes: Record<string, string> = {
  'apertium-eng-spa': '/usr/share/apertium/modes/eng-spa.mode',
  'apertium-fr-es': '/usr/share/apertium/modes/fr-es.mode',
};
let apertiumChecked = false;

/**
 * The chat's offline translation engine (issue 12): installs Apertium and its English–Spanish
 * and French–Spanish pairs when something is missing and we are root (a fresh CI machine);
 * otherwise says what to install and goes on. Never stops the product: without Apertium every
 * chat message is shown as written, marked "not translated".
 */
export function ensureApertium(): void {
  if (apertiumChecked) return;
  apertiumChecked = true;
  const missing = (): string[] =>
    apertiumPackages.filter((name) =>
      name === 'apertium' ? !which('apertium') : !existsSync(apertiumModes[name] ?? ''),
    );
  const before = missing();
  if (before.length === 0) return;
  const advice =
    `Chat translation needs Debian's ${before.join(' ')} ` +
    `(sudo apt-get install -y ${apertiumPackages.join(' ')}); until then chat messages are ` +
    `shown untranslated, or set TRANSLATION_PROVIDER to libretranslate or deepl.`;
  if (process.getuid?.() !== 0) {
    console.warn(`[locus] ${advice}`);
    return;
  }
  console.log(`[locus] installing Debian's ${before.join(' ')} …`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  if (!aptUpdated) {
    spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
    aptUpdated = true;
  }
  spawnSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...apertiumPackages], {
    stdio: 'inherit',
    env,
  });
  const after = missing();
  if (after.length > 0) console.warn(`[locus] could not install ${after.join(' ')}. ${advice}`);
}
