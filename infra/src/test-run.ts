import { createDb, migrateToLatest } from '@locus/db';
import { readFileSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import pg from 'pg';
import { checks } from './cli-checks';
import { localServices } from './local-services';
import { bin, dataRoot, repoRoot } from './paths';
import { run } from './processes';
import {
  ensureApertium,
  ensureChromium,
  ensureCoturn,
  ensureHaproxy,
  ensureRedisServer,
} from './system-packages';
import { buildWebIfStale } from './web-build';

export const TEMPLATE_DATABASE = 'locus_template';

interface VitestSummary {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  numTodoTests: number;
  testResults?: { name: string; startTime: number; endTime: number }[];
}

/**
 * The slowest test files, printed after the run: the suite must stay well under CI's limit
 * (README: about 30 minutes), and this says where the time goes when it grows.
 */
function slowestFiles(summary: VitestSummary, count = 10): string[] {
  return (summary.testResults ?? [])
    .map((file) => ({
      name: relative(repoRoot, file.name),
      seconds: (file.endTime - file.startTime) / 1000,
    }))
    .sort((a, b) => b.seconds - a.seconds)
    .slice(0, count)
    .map((file) => `${file.seconds.toFixed(0).padStart(5)} s  ${file.name}`);
}

/**
 * `npm test`: lint, format check and typecheck, then every vitest test (unit, integration
 * against private Postgres, Redis and an S3-compatible server on free ports, browser tests in
 * Debian's Chromium).
 * Ends with one line `tests: N passed, N failed`.
 */
export async function runTests(vitestArgs: string[]): Promise<number> {
  ensureRedisServer();
  ensureApertium(); // the chat's offline translation, which its tests run for real
  const chromium = ensureChromium();
  // Installed here, once, rather than by the first test that needs them: two test processes
  // running apt-get at once fail on dpkg's lock.
  ensureHaproxy();
  ensureCoturn();
  const failures: string[] = [];
  const quick = vitestArgs.length > 0; // `npm test -- <filter>` runs just those tests
  if (!quick) {
    for (const [name, check] of Object.entries(checks)) {
      console.log(`\n[locus] ${name} …`);
      if ((await check()) !== 0) failures.push(name);
    }
  }

  const scratch = join(dataRoot, `test-${process.pid}`);
  const services = await localServices({
    dataRoot: scratch,
    persistent: false,
    useExternal: false,
    s3: true,
  });
  let summary: VitestSummary | undefined;
  try {
    const adminUrl = services.databaseUrl.replace(/\/locus$/, '/postgres');
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`create database ${TEMPLATE_DATABASE}`);
    await admin.end();
    const { db } = createDb({
      connectionString: adminUrl.replace(/\/postgres$/, `/${TEMPLATE_DATABASE}`),
    });
    await migrateToLatest(db);
    await db.destroy();
    await buildWebIfStale();

    const report = join(scratch, 'vitest.json');
    const code = await run(
      bin('vitest'),
      [
        'run',
        '--reporter=default',
        '--reporter=json',
        `--outputFile.json=${report}`,
        ...vitestArgs,
      ],
      {
        LOCUS_TEST_POSTGRES_ADMIN_URL: adminUrl,
        LOCUS_TEST_TEMPLATE_DATABASE: TEMPLATE_DATABASE,
        LOCUS_TEST_REDIS_URL: services.redisUrl,
        LOCUS_TEST_CHROMIUM: chromium,
        LOCUS_TEST_WEB_DIST: join(repoRoot, 'web', 'dist'),
        // The OpenAPI fuzz (tests/fuzz): 100 requests per route in the whole suite, its full
        // 1,000 in `npm run test:faults` or when it is run alone; FUZZ_RUNS overrides both.
        ...(!quick && process.env.FUZZ_RUNS === undefined && { FUZZ_RUNS: '100' }),
        // The private S3-compatible server: S3 tests build their own adapter on it; the shared
        // test worker keeps local files (tests read exports from EXPORT_DIR).
        ...(services.s3 && {
          LOCUS_TEST_S3_ENDPOINT: services.s3.endpoint,
          LOCUS_TEST_S3_REGION: services.s3.region,
          LOCUS_TEST_S3_BUCKET: services.s3.bucket,
          LOCUS_TEST_S3_ACCESS_KEY_ID: services.s3.accessKeyId,
          LOCUS_TEST_S3_SECRET_ACCESS_KEY: services.s3.secretAccessKey,
        }),
      },
    );
    try {
      summary = JSON.parse(readFileSync(report, 'utf8')) as VitestSummary;
    } catch {
      summary = undefined;
    }
    if (code !== 0) failures.push('tests');
  } finally {
    await services.stop();
    rmSync(scratch, { recursive: true, force: true });
  }

  if (summary?.testResults?.length)
    console.log(`\nslowest test files:\n${slowestFiles(summary).join('\n')}`);
  const passed = summary?.numPassedTests ?? 0;
  const failed = summary?.numFailedTests ?? 0;
  if (summary && passed + failed === 0) failures.push('no tests ran');
  if (failures.length > 0) console.error(`\n[locus] failed: ${failures.join(', ')}`);
  console.log(`\ntests: ${passed} passed, ${failed} failed`);
  return failures.length > 0 ? 1 : 0;
}
