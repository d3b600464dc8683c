import { afterAll, beforeAll, expect, it } from 'vitest';
import { startAuthStack, type AuthStack } from '../auth/support';
import { idsOf, insertSession, insertSignIn } from './fixtures';

let stack: AuthStack;
beforeAll(async () => {
  stack = await startAuthStack({ worker: false });
});
afterAll(async () => {
  await stack?.close();
});

it('inserts every kind of history the metrics count', async () => {
  const db = stack.database.db;
  const ids = await idsOf(db);
  const teamId = ids.team('Demo County 911');
  const userId = ids.user('dispatcher@demo-county.test');
  const at = new Date('2026-10-01T12:00:00Z');
  const id = await insertSession(db, {
    teamId,
    userId,
    createdAt: at,
    endedAt: new Date(at.getTime() + 600_000),
    lookup: {
      requestedAt: at,
      answeredAt: new Date(at.getTime() + 4000),
      status: 'found',
      uncertaintyM: 30,
    },
    callers: [
      {
        language: 'es',
        textSentAt: at,
        linkOpenedAt: at,
        promptShownAt: at,
        sharedAt: at,
        fixes: [[new Date(at.getTime() + 9000), 12]],
      },
    ],
    chat: {
      openedAt: at,
      messages: [{ sender: 'caller', translated: true }, { sender: 'dispatcher' }],
    },
    transferredTo: ids.user('dispatcher2@demo-county.test'),
  });
  await insertSignIn(db, { userId, teamId, at });
  await insertSignIn(db, { userId, teamId, at, failed: true });
  const row = await db
    .selectFrom('tracking_sessions')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  expect(row.first_fix_source).toBe('lookup');
  expect(row.best_uncertainty_m).toBe(12);
});
