import { fileURLToPath } from 'node:url';

/** The monorepo root: servers are started from here, as the infra CLI starts them. */
export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
export const resultsDir = fileURLToPath(new URL('../results/', import.meta.url));
/** Server logs of each run; git-ignored. */
export const runsDir = fileURLToPath(new URL('../.runs/', import.meta.url));
