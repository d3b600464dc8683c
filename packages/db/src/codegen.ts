import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const generatedTypesPath = join(
  dirname(fileURLToPath(import.meta.url)),
  'generated',
  'types.ts',
);

/**
 * Generates the Kysely table types from a migrated database with kysely-codegen, and returns
 * them as text. Written to `generated/types.ts` by `npm run db:types`; the test suite compares
 * a fresh generation with the checked-in file to catch drift.
 */
export function generateTypes(databaseUrl: string, outFile: string): string {
  const require = createRequire(import.meta.url);
  const cli = join(
    dirname(require.resolve('kysely-codegen/package.json')),
    'dist',
    'cli',
    'bin.js',
  );
  const result = spawnSync(
    process.execPath,
    [
      cli,
      '--dialect',
      'postgres',
      '--url',
      databaseUrl,
      '--out-file',
      outFile,
      '--exclude-pattern',
      'kysely_*',
    ],
    { encoding: 'utf8' },
  );
  if (result.status !== 0)
    throw new Error(`kysely-codegen failed: ${result.stderr || result.stdout}`);
  return readFileSync(outFile, 'utf8');
}
