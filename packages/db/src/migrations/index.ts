import type { Migration } from 'kysely/migration';
import * as foundation from './2026-11-22T08-00_foundation';
import * as accounts from './2026-11-23T09-00_accounts';
import * as tracking from './2026-11-23T12-00_tracking';
import * as callLists from './2026-11-23T13-00_call-lists';
import * as fixDelay from './2026-11-24T16-00_fix-delay';
import * as textLocations from './2026-11-24T20-00_text-locations';
import * as userColorScheme from './2026-11-24T22-30_user-color-scheme';

/**
 * Every migration, by name. Names sort by date, so Kysely runs them in order. Listed here
 * (rather than read from the folder) so that migrations work the same from source and bundles.
 */
export const migrations: Record<string, Migration> = {
  '2026-11-22T08-00_foundation': foundation,
  '2026-11-23T09-00_accounts': accounts,
  '2026-11-23T12-00_tracking': tracking,
  '2026-11-23T13-00_call-lists': callLists,
  '2026-11-24T16-00_fix-delay': fixDelay,
  '2026-11-24T20-00_text-locations': textLocations,
  '2026-11-24T22-30_user-color-scheme': userColorScheme,
};
