import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { validate as lintDockerfile } from 'dockerfile-utils';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { testEnvironment } from '../support/environment';
import { repoRoot } from './support';

// Issue 18, deployment: the production Dockerfile's essentials (no container engine here to
// build it: see deploy/README.md), and its migration command run for real against an empty
// database, as the compose `migrate` service and the Helm hook Job run it.

const run = promisify(execFile);
const dockerfile = readFileSync(join(repoRoot, 'Dockerfile'), 'utf8');
const dockerignore = readFileSync(join(repoRoot, '.dockerignore'), 'utf8');

/** The Dockerfile's instructions (continuation lines joined), grouped by stage. */
function stages(): { from: string; name: string | undefined; lines: string[] }[] {
  const instructions = dockerfile
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
  const result: { from: string; name: string | undefined; lines: string[] }[] = [];
  for (const line of instructions) {
    const from = /^FROM\s+(\S+)(?:\s+AS\s+(\S+))?/i.exec(line);
    if (from) result.push({ from: from[1]!, name: from[2], lines: [] });
    else result.at(-1)?.lines.push(line);
  }
  return result;
}

describe('the Dockerfile', () => {
  const all = stages();
  const final = all.at(-1)!;

  it("is a well-formed Dockerfile (dockerfile-utils, the Docker language server's validator)", () => {
    expect(lintDockerfile(dockerfile).map((each) => each.message)).toEqual([]);
  });

  it('builds in stages and runs as a user of its own, not root', () => {
    expect(all.length).toBeGreaterThanOrEqual(3);
    const users = final.lines.filter((line) => line.startsWith('USER '));
    expect(users).toHaveLength(1);
    expect(users[0]).not.toMatch(/^USER\s+(root|0)(:|\s|$)/);
  });

  it('installs exactly the lockfile, with the pnpm 10 that bootstrap pins', () => {
    const installs = all
      .flatMap((stage) => stage.lines)
      .filter((line) => /pnpm install/.test(line));
    expect(installs.length).toBeGreaterThan(0);
    for (const line of installs) expect(line).toContain('--frozen-lockfile');
    const pinned = /const PNPM_VERSION = '([^']+)'/.exec(
      readFileSync(join(repoRoot, 'scripts', 'bootstrap.mjs'), 'utf8'),
    )![1];
    expect(dockerfile).toContain(`ARG PNPM_VERSION=${pinned}`);
    expect(pinned).toMatch(/^10\./);
    expect(dockerfile).toMatch(/npm install -g pnpm@\$\{PNPM_VERSION\}/);
  });

  it('builds the web app in a build stage and ships only its output', () => {
    const builder = all.find((stage) =>
      stage.lines.some((line) => line.includes('--filter @locus/web run build')),
    );
    expect(builder?.name).toBeDefined();
    expect(builder).not.toBe(final);
    expect(final.lines).toContain(`COPY --from=${builder!.name} /app/web/dist /app/web/dist`);
  });

  it('checks its health on /api/v1/health and starts the API by default', () => {
    expect(final.lines.find((line) => line.startsWith('HEALTHCHECK'))).toContain('/api/v1/health');
    const cmd = final.lines.find((line) => line.startsWith('CMD '))!;
    expect(JSON.parse(cmd.slice(4))).toEqual([
      'node',
      '--import',
      'tsx',
      'services/api/src/main.ts',
    ]);
    for (const entry of [
      'services/api/src/main.ts',
      'services/worker/src/main.ts',
      'deploy/migrate.ts',
    ])
      expect(existsSync(join(repoRoot, entry)), entry).toBe(true);
  });

  it('leaves local state, installs and secrets out of the build context', () => {
    const patterns = dockerignore.split('\n').map((line) => line.trim());
    for (const pattern of [
      '.git',
      '.data',
      '**/node_modules',
      '.env',
      'deploy/.env',
      'deploy/secrets',
    ])
      expect(patterns, pattern).toContain(pattern);
  });
});

describe('deploy/migrate.ts, the image’s migration command', () => {
  const migrate = (env: Record<string, string>) =>
    run(process.execPath, ['--import', 'tsx', 'deploy/migrate.ts'], {
      cwd: repoRoot,
      env: { PATH: process.env.PATH ?? '', ...env },
      timeout: 120_000,
    });

  it('migrates an empty database, then finds it up to date', async () => {
    const name = `locus_migrate_${randomBytes(6).toString('hex')}`;
    const adminUrl = testEnvironment.postgresAdminUrl();
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`create database ${name}`);
    try {
      const url = adminUrl.replace(/\/[^/]+$/, `/${name}`);
      const first = await migrate({ DATABASE_URL: url });
      expect(first.stdout).toMatch(/^migrated: \d{4}-/);
      const second = await migrate({ DATABASE_URL: url });
      expect(second.stdout).toBe('schema is up to date\n');
    } finally {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    }
  }, 120_000);

  it('refuses to run without DATABASE_URL (it never starts a database of its own)', async () => {
    await expect(migrate({})).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining('DATABASE_URL is required'),
    });
  });
});
