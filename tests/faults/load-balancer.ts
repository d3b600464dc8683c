import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../infra/src/free-port';
import { ensureDebianBinary } from '../../infra/src/system-packages';

const shipped = readFileSync(join(import.meta.dirname, '../../deploy/haproxy.cfg'), 'utf8');

export interface LoadBalancer {
  url: string;
  wsUrl: string;
  stop(): Promise<void>;
}

/**
 * Debian's HAProxy running the shipped `deploy/haproxy.cfg`, with only the bind address, the
 * two servers' addresses and the connection cap changed: the fault scenarios go through the
 * same health checks, retries and websocket handling as a deployment.
 */
export async function startLoadBalancer(apiPorts: [number, number]): Promise<LoadBalancer> {
  const binary = ensureDebianBinary('haproxy', 'haproxy', ['/usr/sbin/haproxy']);
  const scratch = mkdtempSync(join(tmpdir(), 'locus-fault-lb-'));
  const port = await freePort();
  const config = shipped
    .replace(/^\s*maxconn \d+$/m, '  maxconn 8000')
    .replace(/^\s*bind :\d+$/m, `  bind 127.0.0.1:${port}`)
    .replace('api-1:3000', `127.0.0.1:${apiPorts[0]}`)
    .replace('api-2:3000', `127.0.0.1:${apiPorts[1]}`);
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
  return {
    url,
    wsUrl: `ws://127.0.0.1:${port}`,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
      rmSync(scratch, { recursive: true, force: true });
    },
  };
}
