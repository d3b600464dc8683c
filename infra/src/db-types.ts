import { createDb, migrateToLatest } from '@locus/db';
import { generateTypes, generatedTypesPath } from '@locus/db/codegen';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { localServices } from './local-services';

/** Regenerates packages/db/src/generated/types.ts from a freshly migrated private database. */
export async function regenerateDbTypes(dataRoot: string): Promise<void> {
  const services = await localServices({ dataRoot, persistent: false, useExternal: false });
  try {
    const { db } = createDb({ connectionString: services.databaseUrl });
    await migrateToLatest(db);
    await db.destroy();
    const scratch = join(tmpdir(), `locus-types-${process.pid}.ts`);
    const text = generateTypes(services.databaseUrl, scratch);
    const { writeFileSync } = await import('node:fs');
    writeFileSync(generatedTypesPath, text);
    console.log(`wrote ${generatedTypesPath}`);
  } finally {
    await services.stop();
  }
}
