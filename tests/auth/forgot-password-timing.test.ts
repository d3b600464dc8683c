import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outbox, startAuthStack, uniqueEmail, waitForEmails, type AuthStack } from './support';

let stack: AuthStack;

beforeAll(async () => {
  stack = await startAuthStack();
});

afterAll(async () => {
  await stack?.close();
});

/** The request, failing after `ms` instead of waiting as long as the server holds it. */
async function forgot(email: string, ms = 5_000) {
  const response = await fetch(`${stack.api.url}/api/v1/auth/forgot-password`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email }),
    signal: AbortSignal.timeout(ms),
  });
  return { status: response.status, body: (await response.json()) as unknown };
}

/*
 * Comparing response times statistically is flaky on a shared 2-core machine. What makes the
 * times equal is structural: the answer does not wait for any work that only a known address
 * causes. So the test stalls that work (it holds a lock the reset code's insert needs) and
 * checks that the answer for a known address still comes at once, before its e-mail exists.
 */
describe('forgot password', () => {
  it('answers a known address without waiting for its reset code and e-mail', async () => {
    const known = 'dispatcher@demo-county.test';
    const before = (await outbox(stack.api, known)).length;
    await stack.database.db.transaction().execute(async (trx) => {
      await sql`lock table one_time_codes in exclusive mode`.execute(trx);
      const [forKnown, forUnknown] = [await forgot(known), await forgot(uniqueEmail('nobody'))];
      expect(forKnown).toEqual({ status: 202, body: forUnknown.body });
      expect(forUnknown.status).toBe(202);
      // Still stalled behind the lock: the answer came first.
      expect(await outbox(stack.api, known)).toHaveLength(before);
    });
    // Once the lock is gone, the e-mail follows.
    const mails = await waitForEmails(stack.api, known, before + 1);
    expect(mails[0]!.subject).toBe('Reset your Locus password');
  });
});
