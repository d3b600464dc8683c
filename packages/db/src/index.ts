export * from './connection';
export * from './migrate';
export type { DB } from './generated/types';
export { seedDemo, hashPassword, type SeedOptions, type SeedReport } from './seed/seed';
export { demoHistoryDays } from './seed/demo-history';
export {
  generateHistory,
  type HistoryBatch,
  type HistoryMember,
  type HistoryPlan,
  type HistoryTeam,
} from './history/generate';
export {
  insertHistory,
  insertHistoryBatch,
  type HistoryCounts,
  type HistoryTable,
} from './history/insert';
export { Random } from './history/random';
export { addDays, localDate, localDay } from './history/zoned';
export {
  DEMO_PASSWORD,
  demoUsers,
  demoTeams,
  demoExtraUsers,
  demoLockedUsers,
  demoNewDispatchers,
  demoWaitingForVerification,
} from './seed/demo-data';
export { lockDemoAccounts, demoLockSeconds } from './seed/demo-locks';
export { parseFccPsapCsv } from './psap/fcc-csv';
export { upsertPsaps } from './psap/repo';
export { readChatTranscript } from './chat/transcript';
export { readConsentReceipts } from './consent/receipts';
