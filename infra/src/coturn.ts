import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { createConnection } from 'node:net';
import { join, resolve } from 'node:path';
import { stopStaleServer } from './stale-process';
import { ensureCoturn } from './system-packages';

export interface RunningTurn {
  /** For TURN_URLS: UDP and TCP on the one port. */
  urls: string[];
  /** For TURN_SECRET: coturn's static-auth-secret. */
  secret: string;
  port: number;
  pid: number | undefined;
  stop(): Promise<void>;
}

/** coturn listens on TCP as well as UDP on its port: a TCP connect says it is up. */
function listening(port: number, host: string): Promise<boolean> {
  return new Promise((done) => {
    const socket = createConnection({ host, port });
    socket.once('connect', () => {
      socket.destroy();
      done(true);
    });
    socket.once('error', () => done(false));
  });
}

/**
 * Starts Debian's coturn (`turnserver`) for live video (issue 19), checking credentials the API
 * mints by the TURN REST API scheme (`use-auth-secret` with `static-auth-secret`). Installs the
 * `coturn` package when missing and root, like the other services; otherwise throws, saying
 * what to install. `host` is where browsers reach it (the URLs handed out); it listens on every
 * interface so that a phone on the LAN can relay through it too.
 */
export async function startCoturn(options: {
  port: number;
  dataDir: string;
  host?: string;
  secret?: string;
  /** Relay ports (UDP) coturn allocates from; coturn's default is 49152–65535. */
  relayPorts?: { min: number; max: number };
  /** Listen on loopback only (tests): nothing outside the machine reaches it. */
  loopbackOnly?: boolean;
}): Promise<RunningTurn> {
  const binary = ensureCoturn();
  // Private, link-local, shared and loopback ranges: what a relay must never reach.
  const deniedPeers = [
    '0.0.0.0-0.255.255.255',
    '10.0.0.0-10.255.255.255',
    '100.64.0.0-100.127.255.255',
    '169.254.0.0-169.254.255.255',
    '172.16.0.0-172.31.255.255',
    '192.168.0.0-192.168.255.255',
    ...(options.loopbackOnly
      ? []
      : ['127.0.0.0-127.255.255.255', '::1', 'fc00::-fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff']),
  ];
  const dir = resolve(options.dataDir);
  mkdirSync(dir, { recursive: true });
  const pidFile = join(dir, 'turnserver.pid');
  await stopStaleServer(pidFile, 'turnserver', 'SIGTERM');
  const secret = options.secret ?? randomBytes(24).toString('base64url');
  const host = options.host ?? '127.0.0.1';
  const args = [
    // No configuration file: everything is on the command line.
    '-n',
    '--listening-port',
    String(options.port),
    ...(options.loopbackOnly ? ['--listening-ip', '127.0.0.1', '--relay-ip', '127.0.0.1'] : []),
    '--use-auth-secret',
    '--static-auth-secret',
    secret,
    '--realm',
    'locus',
    '--fingerprint',
    // Plain TURN only: a local server has no certificate (production uses turns: with one).
    '--no-tls',
    '--no-dtls',
    '--no-cli',
    // Relays only UDP media between browsers, never to this machine's services or the private
    // network behind it: anyone with a caller link holds credentials for an hour.
    '--no-tcp-relay',
    '--no-multicast-peers',
    ...deniedPeers.flatMap((range) => ['--denied-peer-ip', range]),
    // Tests and a laptop's demo run both browsers on this machine: their peers are loopback,
    // which is allowed only for a server that listens on loopback alone.
    ...(options.loopbackOnly ? ['--allow-loopback-peers'] : []),
    '--pidfile',
    pidFile,
    '--log-file',
    'stdout',
    '--simple-log',
    ...(options.relayPorts
      ? ['--min-port', String(options.relayPorts.min), '--max-port', String(options.relayPorts.max)]
      : []),
  ];
  // Its own process group: Ctrl-C reaches the orchestrator, which stops coturn after the apps.
  const child = spawn(binary, args, { stdio: ['ignore', 'ignore', 'inherit'], detached: true });
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    const force = setTimeout(() => child.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(force);
  };
  for (let attempt = 0; attempt < 100; attempt += 1) {
    if (child.exitCode !== null) throw new Error(`turnserver exited with code ${child.exitCode}`);
    if (await listening(options.port, '127.0.0.1')) {
      return {
        urls: [
          `turn:${host}:${options.port}?transport=udp`,
          `turn:${host}:${options.port}?transport=tcp`,
        ],
        secret,
        port: options.port,
        pid: child.pid,
        stop,
      };
    }
    await new Promise((wait) => setTimeout(wait, 50));
  }
  await stop();
  throw new Error('turnserver did not listen within 5 s');
}

/** Whether nothing listens on this TCP port of this machine. */
async function portFree(port: number): Promise<boolean> {
  return !(await listening(port, '127.0.0.1'));
}

/**
 * `npm start`'s coturn: on 3478 (TURN's port) when it is free, else on a free port, with a
 * secret made for this run. Null, after saying what is missing, when it cannot run: live video
 * then works only where the two browsers reach each other directly.
 */
export async function startLocalTurn(options: {
  dataDir: string;
  host: string;
  freePort: () => Promise<number>;
}): Promise<RunningTurn | null> {
  try {
    const port = (await portFree(3478)) ? 3478 : await options.freePort();
    return await startCoturn({ port, dataDir: options.dataDir, host: options.host });
  } catch (error) {
    console.warn(
      `[locus] no local TURN server: ${error instanceof Error ? error.message : String(error)}. ` +
        `Live video then works only where the browsers reach each other directly; set TURN_URLS ` +
        `and TURN_SECRET to use a TURN server of your own.`,
    );
    return null;
  }
}
