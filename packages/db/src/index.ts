export * from './connection';
export * from './migrate';
export type { DB } from './generated/types';
export { seedDemo, hashPassword, type SeedReport } from './seed/seed';
export { DEMO_PASSWORD, demoUsers, demoTeams } from './seed/demo-data';
export { parseFccPsapCsv } from './psap/fcc-csv';
export { upsertPsaps } from './psap/repo';
