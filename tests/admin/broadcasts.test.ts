import { broadcastLimits, closeCodes, realtimePaths, type Broadcast } from '@locus/contract';
import { Redis } from 'ioredis';
import { sql } from 'kysely';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, signIn, startAuthStack, type AuthStack } from '../auth/support';
import { startApi, type TestApi } from '../support/api';
import { startPrivateRedis } from '../support/private-redis';
import { TestSocket, type ReceivedFrame } from '../support/sockets';

// Issue 22, maintenance broadcasts: the platform owner posts on instance A; a console whose
// socket is on instance B (same Postgres, same Redis prefix) shows it within 2 seconds.
const owner = 'owner@locus.test';
const teamAdmin = 'teamadmin@demo-county.test';
const dispatcher = 'dispatcher@demo-county.test';
const message = 'The SMS provider is degraded: confirm locations by voice.';

let stack: AuthStack;
let apiB: TestApi;
let ownerToken: string;
let dispatcherToken: string;

beforeAll(async () => {
  stack = await startAuthStack({ worker: false });
  apiB = await startApi({ databaseUrl: stack.database.url, redisPrefix: stack.redisPrefix });
  ownerToken = await signIn(stack.api, owner);
  dispatcherToken = await signIn(stack.api, dispatcher);
});

afterAll(async () => {
  await apiB?.close();
  await stack?.close();
});

async function ticket(api: TestApi, token: string): Promise<string> {
  const answer = await call<{ ticket: string }>(api, 'GET', '/api/v1/console/ticket', { token });
  expect(answer.status).toBe(200);
  return answer.body.ticket;
}

async function openConsole(api: TestApi, token: string): Promise<TestSocket> {
  const socket = await TestSocket.open(
    `${api.wsUrl}${realtimePaths.console}?ticket=${await ticket(api, token)}`,
  );
  // The greeting: every broadcast showing now.
  await socket.event('broadcasts');
  return socket;
}

const listIn = (frame: ReceivedFrame) => frame.data.current as Broadcast[];

/** Resolves with the first `broadcasts` frame after the `after`-th that matches, within `ms`. */
async function broadcastsWithin(
  socket: TestSocket,
  after: number,
  match: (current: Broadcast[]) => boolean,
  ms = 2_000,
): Promise<Broadcast[]> {
  let timer: NodeJS.Timeout | undefined;
  const tooLate = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no matching broadcasts frame in ${ms} ms`)), ms);
  });
  const frame = socket.next(
    (candidate) =>
      candidate.event === 'broadcasts' &&
      socket.of('broadcasts').indexOf(candidate) >= after &&
      match(listIn(candidate)),
  );
  return Promise.race([frame, tooLate])
    .then(listIn)
    .finally(() => clearTimeout(timer));
}

async function current(api: TestApi, token: string): Promise<Broadcast[]> {
  const answer = await call<{ current: Broadcast[] }>(api, 'GET', '/api/v1/broadcasts/current', {
    token,
  });
  expect(answer.status).toBe(200);
  return answer.body.current;
}

async function post(body: Record<string, unknown>, token = ownerToken) {
  return call<Broadcast & { error?: string; issues?: { path: string }[] }>(
    stack.api,
    'POST',
    '/api/v1/platform/broadcasts',
    { token, body },
  );
}

async function withdraw(id: string, token = ownerToken, api = stack.api) {
  return call(api, 'DELETE', `/api/v1/platform/broadcasts/${id}`, { token });
}

describe('maintenance broadcasts', { timeout: 30_000 }, () => {
  it('reaches a console on the other instance within 2 seconds, and so does its withdrawal', async () => {
    const consoleSocket = await openConsole(apiB, dispatcherToken);
    const seen = consoleSocket.countOf('broadcasts');

    const posted = await post({ level: 'warning', text: `  ${message}  ` });
    expect(posted.status).toBe(201);
    expect(posted.body).toMatchObject({
      level: 'warning',
      text: message,
      endsAt: null,
      postedBy: expect.stringMatching(/\S/),
    });
    const shown = await broadcastsWithin(consoleSocket, seen, (list) =>
      list.some((broadcast) => broadcast.id === posted.body.id),
    );
    expect(shown.find((broadcast) => broadcast.id === posted.body.id)).toEqual(posted.body);

    // Any signed-in user reads it, on either instance; a console opened later is greeted with it.
    expect((await current(apiB, dispatcherToken)).map((broadcast) => broadcast.id)).toContain(
      posted.body.id,
    );
    const later = await openConsole(stack.api, dispatcherToken);
    expect(listIn(later.of('broadcasts')[0]!).map((broadcast) => broadcast.id)).toContain(
      posted.body.id,
    );

    // Withdrawn on B this time: the console on B and the one on A both drop it.
    const beforeB = consoleSocket.countOf('broadcasts');
    const beforeA = later.countOf('broadcasts');
    expect((await withdraw(posted.body.id, ownerToken, apiB)).status).toBe(204);
    const gone = (list: Broadcast[]) => !list.some((broadcast) => broadcast.id === posted.body.id);
    await broadcastsWithin(consoleSocket, beforeB, gone);
    await broadcastsWithin(later, beforeA, gone);
    expect(gone(await current(stack.api, dispatcherToken))).toBe(true);
    // Withdrawing it again: it is no longer showing.
    expect((await withdraw(posted.body.id)).status).toBe(404);

    // Both are audited.
    const audit = await stack.database.db
      .selectFrom('audit_log')
      .select('action')
      .where('subject', '=', posted.body.id)
      .orderBy('id')
      .execute();
    expect(audit.map((row) => row.action)).toEqual(['broadcast.posted', 'broadcast.withdrawn']);

    // The console sockets are counted in locus_sockets.
    const gauge = await apiB.app.locus.metrics.registry.getSingleMetricAsString('locus_sockets');
    expect(gauge).toMatch(/locus_sockets\{kind="console"\} 1/);
    await consoleSocket.close();
    await later.close();
  });

  it('refuses dispatchers and team admins (403), and changes nothing', async () => {
    const before = await current(stack.api, dispatcherToken);
    for (const email of [dispatcher, teamAdmin]) {
      const token = email === dispatcher ? dispatcherToken : await signIn(stack.api, email);
      const refused = await post({ level: 'info', text: 'Not mine to say.' }, token);
      expect(refused.status).toBe(403);
      expect(refused.body.error).toBe('forbidden');
    }
    const showing = await post({ level: 'info', text: 'Planned maintenance at 02:00 UTC.' });
    expect(showing.status).toBe(201);
    const refusedWithdraw = await withdraw(showing.body.id, dispatcherToken);
    expect(refusedWithdraw.status).toBe(403);
    expect((await current(stack.api, dispatcherToken)).map((broadcast) => broadcast.id)).toEqual([
      showing.body.id,
      ...before.map((broadcast) => broadcast.id),
    ]);
    expect((await withdraw(showing.body.id)).status).toBe(204);
    // Nobody signed in: 401, from every call.
    expect((await call(stack.api, 'GET', '/api/v1/broadcasts/current')).status).toBe(401);
    expect((await call(stack.api, 'GET', '/api/v1/console/ticket')).status).toBe(401);
  });

  it('refuses a text over 280 characters, an empty one and an end time in the past (400)', async () => {
    const tooLong = await post({
      level: 'info',
      text: 'x'.repeat(broadcastLimits.textMaxLength + 1),
    });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.error).toBe('validation-failed');
    expect(tooLong.body.issues?.map((issue) => issue.path)).toContain('text');

    expect((await post({ level: 'info', text: '   ' })).status).toBe(400);
    expect((await post({ level: 'critical', text: 'Hello' })).status).toBe(400);

    const past = await post({
      level: 'warning',
      text: 'Already over.',
      endsAt: new Date(Date.now() - 60_000).toISOString(),
    });
    expect(past.status).toBe(400);
    expect(past.body.error).toBe('validation-failed');
    expect(past.body.issues?.map((issue) => issue.path)).toContain('endsAt');

    // Exactly 280 is fine.
    const longest = await post({ level: 'info', text: 'y'.repeat(broadcastLimits.textMaxLength) });
    expect(longest.status).toBe(201);
    expect((await withdraw(longest.body.id)).status).toBe(204);
  });

  it('leaves an ended broadcast out of /current and out of a new console’s greeting', async () => {
    // A real end time, a moment away: a console reads it and hides it by itself when it passes.
    const endsAt = new Date(Date.now() + 3_000).toISOString();
    const posted = await post({ level: 'info', text: 'Over in a moment.', endsAt });
    expect(posted.status).toBe(201);
    expect(Date.parse(posted.body.endsAt!)).toBe(Date.parse(endsAt));
    expect((await current(stack.api, dispatcherToken)).map((broadcast) => broadcast.id)).toContain(
      posted.body.id,
    );

    await expect
      .poll(
        async () => (await current(stack.api, dispatcherToken)).map((broadcast) => broadcast.id),
        { timeout: 10_000, interval: 200 },
      )
      .not.toContain(posted.body.id);
    const consoleSocket = await openConsole(apiB, dispatcherToken);
    expect(
      listIn(consoleSocket.of('broadcasts')[0]!).map((broadcast) => broadcast.id),
    ).not.toContain(posted.body.id);
    // An ended broadcast cannot be withdrawn any more.
    expect((await withdraw(posted.body.id)).status).toBe(404);
    expect((await withdraw('00000000-0000-4000-8000-000000000000')).status).toBe(404);
    await consoleSocket.close();
  });

  it('opens a console socket once per ticket; an unknown ticket gets an error and 4401', async () => {
    const once = await ticket(stack.api, dispatcherToken);
    const first = await TestSocket.open(`${apiB.wsUrl}${realtimePaths.console}?ticket=${once}`);
    await first.event('broadcasts');

    for (const url of [
      `${stack.api.wsUrl}${realtimePaths.console}?ticket=${once}`,
      `${apiB.wsUrl}${realtimePaths.console}?ticket=${'A'.repeat(43)}`,
      `${apiB.wsUrl}${realtimePaths.console}`,
    ]) {
      const refused = await TestSocket.open(url);
      expect(await refused.closed()).toBe(closeCodes.invalidToken);
      expect(refused.frames.map((frame) => frame.event)).toEqual(['error']);
      expect(refused.frames[0]!.data.error).toBe('invalid-token');
    }
    await first.close();
  });

  it('closes the console sockets of a sign-in that signs out, not the same user’s other consoles', async () => {
    const signingOut = await signIn(stack.api, dispatcher);
    const other = await signIn(stack.api, dispatcher);
    const leaving = await openConsole(apiB, signingOut);
    const staying = await openConsole(apiB, other);

    const signedOut = await call(stack.api, 'POST', '/api/v1/auth/sign-out', {
      token: signingOut,
      body: {},
    });
    expect(signedOut.status).toBeLessThan(300);
    expect(await leaving.closed()).toBe(closeCodes.invalidToken);
    expect(leaving.of('error').at(-1)!.data.error).toBe('invalid-token');

    // The other console still gets what is posted.
    const seen = staying.countOf('broadcasts');
    const posted = await post({ level: 'info', text: 'Still listening?' });
    await broadcastsWithin(staying, seen, (list) =>
      list.some((broadcast) => broadcast.id === posted.body.id),
    );
    expect(staying.closeCode).toBeUndefined();
    expect((await withdraw(posted.body.id)).status).toBe(204);
    await staying.close();
  });

  it('keeps re-reading after a failed read, so a withdrawn warning does not stay up', async () => {
    // Instance C connects to Postgres as its own role, so that its reads alone can be made to
    // fail (real Postgres refusing them), while instance A withdraws as usual.
    const db = stack.database.db;
    const role = `locus_c_${randomBytes(4).toString('hex')}`;
    await sql.raw(`create role ${role} login password '${role}'`).execute(db);
    await sql
      .raw(
        `grant usage on schema public to ${role};
         grant all on all tables in schema public to ${role};
         grant all on all sequences in schema public to ${role};`,
      )
      .execute(db);
    const url = new URL(stack.database.url);
    url.username = role;
    url.password = role;
    const apiC = await startApi({ databaseUrl: url.toString(), redisPrefix: stack.redisPrefix });
    try {
      const consoleSocket = await openConsole(apiC, dispatcherToken);
      const seen = consoleSocket.countOf('broadcasts');
      const posted = await post({ level: 'warning', text: 'Withdrawn during an outage.' });
      expect(posted.status).toBe(201);
      await broadcastsWithin(consoleSocket, seen, (list) =>
        list.some((broadcast) => broadcast.id === posted.body.id),
      );

      // C can no longer read the broadcasts: its re-read after the withdrawal fails.
      await sql.raw(`revoke select on broadcasts from ${role}`).execute(db);
      const { rows } = await sql<{ now: Date }>`select clock_timestamp() as now`.execute(db);
      const revokedAt = rows[0]!.now;
      const before = consoleSocket.countOf('broadcasts');
      expect((await withdraw(posted.body.id)).status).toBe(204);
      // Wait until C has tried (and so failed) to read them since the revocation.
      await expect
        .poll(
          async () => {
            const { rows: tried } = await sql<{ count: string }>`
              select count(*) as count from pg_stat_activity
              where usename = ${role} and query like '%from "broadcasts"%'
                and query_start > ${revokedAt}`.execute(db);
            return Number(tried[0]!.count);
          },
          { timeout: 10_000, interval: 50 },
        )
        .toBeGreaterThan(0);
      expect(consoleSocket.countOf('broadcasts')).toBe(before);

      // Postgres is back for C: a retry (every 2 s) brings the list without the warning.
      await sql.raw(`grant select on broadcasts to ${role}`).execute(db);
      const gone = await broadcastsWithin(
        consoleSocket,
        before,
        (list) => !list.some((broadcast) => broadcast.id === posted.body.id),
        5_000,
      );
      expect(gone.map((broadcast) => broadcast.id)).not.toContain(posted.body.id);
      await consoleSocket.close();
    } finally {
      await apiC.close();
      await sql.raw(`drop owned by ${role}; drop role ${role}`).execute(db);
    }
  });

  it('answers 201 and 204 when the change cannot be announced: stored once, no second post', async () => {
    // Instance D on a Redis of its own that refuses PUBLISH (an ACL, on a private server so
    // that no other test file is disturbed): the announcement fails after the commit.
    const redisServer = await startPrivateRedis();
    const apiD = await startApi({
      databaseUrl: stack.database.url,
      redisPrefix: stack.redisPrefix,
      env: { REDIS_URL: redisServer.url },
    });
    const admin = new Redis(redisServer.url);
    try {
      const token = await signIn(apiD, owner);
      await admin.call('ACL', 'SETUSER', 'default', '-publish');
      const text = 'Posted while the announcement fails.';
      const posted = await call<Broadcast>(apiD, 'POST', '/api/v1/platform/broadcasts', {
        token,
        body: { level: 'warning', text },
      });
      expect(posted.status).toBe(201);
      expect(posted.body).toMatchObject({ level: 'warning', text });
      const stored = await current(stack.api, dispatcherToken);
      expect(stored.filter((broadcast) => broadcast.text === text)).toHaveLength(1);
      expect((await withdraw(posted.body.id, token, apiD)).status).toBe(204);
      expect((await current(stack.api, dispatcherToken)).map((b) => b.id)).not.toContain(
        posted.body.id,
      );
    } finally {
      admin.disconnect();
      await apiD.close();
      await redisServer.stop();
    }
  });

  it('closes console sockets with 1001 when the instance shuts down', async () => {
    const apiC = await startApi({
      databaseUrl: stack.database.url,
      redisPrefix: stack.redisPrefix,
    });
    const consoleSocket = await openConsole(apiC, dispatcherToken);
    await apiC.close();
    expect(await consoleSocket.closed()).toBe(closeCodes.goingAway);
  });
});
