export * from './connection';
export * from './migrate';
export type { DB } from './generated/types';
export { seedDemo, hashPassword, type SeedReport } from './seed/seed';
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
