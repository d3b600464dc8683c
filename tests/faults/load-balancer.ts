import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../infra/src/free-port';
import { ensureHaproxy } from '../../infra/src/system-packages';

const shipped = readFileSync(join(import.meta.dirname, '../../deploy/haproxy.cfg'), 'utf8');

export interface LoadBalancer {
  url: string;
  wsUrl: string;
  /** Resolves once HAProxy's own checks mark the server (`api-1`, `api-2`) UP. */
  waitUp(server: 'api-1' | 'api-2', timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Debian's HAProxy running the shipped `deploy/haproxy.cfg`, with only the bind address, the
 * two servers' addresses and the connection cap changed: the fault scenarios go through the
 * same health checks, retries and websocket handling as a deployment.
 */
export async function startLoadBalancer(apiPorts: [number, number]): Promise<LoadBalancer> {
  const binary = ensureHaproxy();
  const scratch = mkdtempSync(join(tmpdir(), 'locus-fault-lb-'));
  const port = await freePort();
  const statsPort = await freePort();
  // Plus a stats page, so that a restart waits for HAProxy's verdict as a deploy tool would.
  const stats = `\nlisten stats\n  bind 127.0.0.1:${statsPort}\n  mode http\n  stats enable\n  stats uri /stats\n`;
  const config = shipped
    .replace(/^\s*maxconn \d+$/m, '  maxconn 8000')
    .replace(/^\s*bind :\d+$/m, `  bind 127.0.0.1:${port}`)
    .replace('api-1:3000', `127.0.0.1:${apiPorts[0]}`)
    .replace('api-2:3000', `127.0.0.1:${apiPorts[1]}`)
    .concat(stats);
  const file = join(scratch, 'haproxy.cfg');
  writeFileSync(file, config);
  const child: ChildProcess = spawn(binary, ['-db', '-f', file], {
    stdio: ['ignore', 'ignore', 'ignore'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  for (let attempt = 0; ; attempt += 1) {
    const up = await fetch(`${url}/api/v1/health`).then(
      (response) => response.ok,
      () => false,
    );
    if (up) break;
    if (attempt > 200) throw new Error('HAProxy never answered');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const status = async (server: string): Promise<string | undefined> => {
    const csv = await fetch(`http://127.0.0.1:${statsPort}/stats;csv`).then((answer) =>
      answer.text(),
    );
    const [header, ...rows] = csv.split('\n');
    const columns = header!.replace(/^# /, '').split(',');
    const row = rows
      .map((line) => line.split(','))
      .find((cells) => cells[0] === 'locus_api' && cells[1] === server);
    return row?.[columns.indexOf('status')];
  };
  return {
    url,
    wsUrl: `ws://127.0.0.1:${port}`,
    waitUp: async (server, timeoutMs = 20_000) => {
      const deadline = Date.now() + timeoutMs;
      while ((await status(server)) !== 'UP') {
        if (Date.now() > deadline) throw new Error(`HAProxy did not mark ${server} UP`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
      rmSync(scratch, { recursive: true, force: true });
    },
  };
}
