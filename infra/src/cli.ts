import { join } from 'node:path';
import { importPsaps, migrate, seed } from './database-tasks';
import { regenerateDbTypes } from './db-types';
import { localServices } from './local-services';
import { dataRoot, nodeTs, repoRoot } from './paths';
import { run } from './processes';
import { start } from './start';
import { runTests } from './test-run';
import { checks } from './cli-checks';
import { buildWebIfStale } from './web-build';

/** Runs a task against DATABASE_URL, or against the embedded database under .data/. */
async function withServices(
  task: (urls: { databaseUrl: string; redisUrl: string }) => Promise<void>,
): Promise<void> {
  const services = await localServices({ dataRoot, persistent: true });
  try {
    await task(services);
  } finally {
    await services.stop();
  }
}

async function main(command: string | undefined, args: string[]): Promise<void> {
  switch (command) {
    case 'start':
      await start();
      break;
    case 'test':
      process.exit(await runTests(args));
      break;
    case 'test:faults':
      // The fault suite and the OpenAPI fuzz at full strength (1,000 requests per route, about
      // 6 minutes): more than `npm test` should carry, which runs the fuzz at 100 per route.
      process.exit(await runTests(['tests/faults', 'tests/fuzz', ...args]));
      break;
    case 'lint':
    case 'format':
    case 'typecheck':
      process.exit(await checks[command]());
      break;
    case 'migrate':
      await withServices(({ databaseUrl }) => migrate(databaseUrl));
      break;
    case 'seed':
      await withServices(({ databaseUrl, redisUrl }) => seed(databaseUrl, redisUrl));
      break;
    case 'psap:import':
      if (!args[0]) throw new Error('usage: npm run psap:import -- <fcc-master-psap-registry.csv>');
      await withServices(({ databaseUrl }) => importPsaps(databaseUrl, args[0]!));
      break;
    case 'build:web':
      await buildWebIfStale(true);
      break;
    case 'alert-rules': {
      // The API's own configuration (STATUS_THRESHOLDS over the defaults), as it would start.
      const { printAlertRules } =
        await import('../../services/api/src/modules/platform-status/print-alert-rules');
      printAlertRules();
      break;
    }
    case 'verify-export': {
      // npm runs every script in the repository root; a relative path is the user's.
      const { verifyExportCli } = await import('../../packages/client/src/verify-export-cli');
      process.exit(verifyExportCli(args, { cwd: process.env.INIT_CWD ?? process.cwd() }));
      break;
    }
    case 'db:types':
      await regenerateDbTypes(join(dataRoot, 'db-types'));
      break;
    case 'bench': {
      const services = await localServices({
        dataRoot: join(dataRoot, 'bench'),
        persistent: false,
        useExternal: false,
      });
      try {
        await migrate(services.databaseUrl);
        const [node, tsArgs] = nodeTs(join(repoRoot, 'bench', 'src', 'run.ts'));
        const code = await run(node, [...tsArgs, ...args], {
          DATABASE_URL: services.databaseUrl,
          REDIS_URL: services.redisUrl,
        });
        process.exitCode = code;
      } finally {
        await services.stop();
      }
      break;
    }
    default:
      console.error(
        `unknown command "${command}". Commands: start, test, bench, migrate, seed, psap:import, db:types, build:web, alert-rules, verify-export, lint, format, typecheck`,
      );
      process.exit(2);
  }
}

const [command, ...args] = process.argv.slice(2);
try {
  await main(command, args);
} catch (error) {
  const message = error instanceof Error ? error.message : String(error);
  console.error(`[locus] ${command} failed: ${message}`);
  if (process.env.LOCUS_DEBUG) console.error(error);
  process.exit(1);
}
