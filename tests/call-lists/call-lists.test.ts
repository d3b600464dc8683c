import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, signIn, startAuthStack, type AuthStack } from '../auth/support';

interface CallList {
  id: string;
  callListName: string;
  teamId: string;
  numberCount: number;
}
interface Entry {
  phoneNumber: string;
  label: string | null;
}
interface ListUser {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  phoneNumber: string | null;
}

let stack: AuthStack;
let teamAdmin: string;
let dispatcher: string;
let dispatcher2: string;
let neighbour: string;
let owner: string;
let demoTeamId: string;
let neighbourTeamId: string;
let dispatcherId: string;
let dispatcher2Id: string;
let neighbourId: string;

const base = '/api/v1/call-list';

async function me(token: string) {
  const user = await call<{ id: string }>(stack.api, 'GET', '/api/v1/auth/current-user', { token });
  const teams = await call<{ id: string; teamName: string }[]>(
    stack.api,
    'GET',
    `/api/v1/users/${user.body.id}/teams`,
    { token },
  );
  return { id: user.body.id, teamId: teams.body[0]!.id };
}

async function create(token: string, body: unknown, teamId = demoTeamId) {
  return call<CallList>(stack.api, 'POST', `${base}/create-call-list/${teamId}`, { token, body });
}

async function teamLists(token: string, teamId = demoTeamId) {
  return call<CallList[]>(stack.api, 'GET', `${base}/get-team-call-lists/${teamId}`, { token });
}

async function storedNumbers(listId: string) {
  return (
    await stack.database.db
      .selectFrom('call_list_numbers')
      .select(['phone_number', 'label'])
      .where('call_list_id', '=', listId)
      .orderBy('phone_number')
      .execute()
  ).map((row) => row.phone_number);
}

beforeAll(async () => {
  stack = await startAuthStack({ worker: false });
  [teamAdmin, dispatcher, dispatcher2, neighbour, owner] = await Promise.all([
    signIn(stack.api, 'teamadmin@demo-county.test'),
    signIn(stack.api, 'dispatcher@demo-county.test'),
    signIn(stack.api, 'dispatcher2@demo-county.test'),
    signIn(stack.api, 'dispatcher@neighbour-county.test'),
    signIn(stack.api, 'owner@locus.test'),
  ]);
  const [admin, first, second, other] = await Promise.all([
    me(teamAdmin),
    me(dispatcher),
    me(dispatcher2),
    me(neighbour),
  ]);
  demoTeamId = admin.teamId;
  neighbourTeamId = other.teamId;
  dispatcherId = first.id;
  dispatcher2Id = second.id;
  neighbourId = other.id;
  // Dana's number is also on the seeded Search and Rescue list; Devon's is not a valid number.
  for (const [token, id, phoneNumber] of [
    [dispatcher, dispatcherId, '+1 202 555 0171'],
    [dispatcher2, dispatcher2Id, '555'],
    [neighbour, neighbourId, '+12025550190'],
  ] as const) {
    const patched = await call(stack.api, 'PATCH', `/api/v1/users/${id}`, {
      token,
      body: { phoneNumber },
    });
    expect(patched.status).toBe(200);
  }
});

afterAll(async () => {
  await stack?.close();
});

describe('the seeded lists', () => {
  it('are Demo County 911’s, by name, with their number counts, and readable by its members', async () => {
    for (const token of [teamAdmin, dispatcher]) {
      const lists = await teamLists(token);
      expect(lists.status).toBe(200);
      expect(
        lists.body.map(({ callListName, numberCount, teamId }) => ({
          callListName,
          numberCount,
          teamId,
        })),
      ).toEqual([
        { callListName: 'Coast patrol boats', numberCount: 2, teamId: demoTeamId },
        { callListName: 'Search and Rescue volunteers', numberCount: 3, teamId: demoTeamId },
      ]);
    }
    const neighbours = await teamLists(neighbour, neighbourTeamId);
    expect(neighbours).toMatchObject({ status: 200, body: [] });
  });

  it('need a signed-in user', async () => {
    const answer = await call(stack.api, 'GET', `${base}/get-team-call-lists/${demoTeamId}`);
    expect(answer).toMatchObject({ status: 401, body: { error: 'unauthorized' } });
  });
});

describe('a team admin', () => {
  it('creates, renames, fills, empties and deletes a list', async () => {
    const created = await create(teamAdmin, {
      callListName: '  Hazmat unit  ',
      phoneNumbers: ['+1 202-555-0180', '+12025550181', '+1 (202) 555-0180'],
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      callListName: 'Hazmat unit',
      teamId: demoTeamId,
      numberCount: 2,
    });
    const id = created.body.id;
    expect(await storedNumbers(id)).toEqual(['+12025550180', '+12025550181']);

    const withTeam = await call(stack.api, 'GET', `${base}/get-call-list-team/${id}`, {
      token: teamAdmin,
    });
    expect(withTeam).toMatchObject({
      status: 200,
      body: { id, callListName: 'Hazmat unit', teamName: 'Demo County 911', numberCount: 2 },
    });

    const renamed = await call<CallList>(stack.api, 'PUT', `${base}/rename/${id}`, {
      token: teamAdmin,
      body: { callListName: 'Hazmat response' },
    });
    expect(renamed).toMatchObject({ status: 200, body: { id, callListName: 'Hazmat response' } });

    const added = await call<Entry[]>(stack.api, 'POST', `${base}/add-new-user/${id}`, {
      token: teamAdmin,
      body: { phoneNumber: '+12025550182', label: 'Hazmat chief' },
    });
    expect(added.status).toBe(200);
    expect(added.body).toEqual([
      { phoneNumber: '+12025550180', label: null },
      { phoneNumber: '+12025550181', label: null },
      { phoneNumber: '+12025550182', label: 'Hazmat chief' },
    ]);
    // The same number again changes nothing (and keeps its label).
    const again = await call<Entry[]>(stack.api, 'POST', `${base}/add-new-user/${id}`, {
      token: teamAdmin,
      body: { phoneNumber: '+1 202 555 0182' },
    });
    expect(again.body).toEqual(added.body);

    const listed = await call<Entry[]>(stack.api, 'GET', `${base}/numbers/${id}`, {
      token: dispatcher,
    });
    expect(listed.body).toEqual(added.body);

    const removed = await call<Entry[]>(stack.api, 'PUT', `${base}/remove-numbers/${id}`, {
      token: teamAdmin,
      body: { phoneNumbers: ['+12025550180', '+19999999999'] },
    });
    expect(removed.status).toBe(200);
    expect(removed.body.map((entry) => entry.phoneNumber)).toEqual([
      '+12025550181',
      '+12025550182',
    ]);

    const attached = await call<ListUser[]>(
      stack.api,
      'PUT',
      `${base}/add-existing-users/${id}/${dispatcherId},${dispatcher2Id}`,
      { token: teamAdmin },
    );
    expect(attached.status).toBe(200);
    expect(attached.body.map((user) => user.email)).toEqual([
      'dispatcher@demo-county.test',
      'dispatcher2@demo-county.test',
    ]);
    expect(attached.body[0]).toEqual({
      id: dispatcherId,
      firstName: 'Dana',
      lastName: 'Dispatcher',
      email: 'dispatcher@demo-county.test',
      phoneNumber: '+1 202 555 0171',
    });
    const twice = await call<ListUser[]>(
      stack.api,
      'PUT',
      `${base}/add-existing-users/${id}/${dispatcherId}`,
      { token: teamAdmin },
    );
    expect(twice.body).toEqual(attached.body);
    const users = await call<ListUser[]>(stack.api, 'GET', `${base}/get-team-cl-users/${id}`, {
      token: dispatcher,
    });
    expect(users.body).toEqual(attached.body);

    const detached = await call<ListUser[]>(
      stack.api,
      'PUT',
      `${base}/remove-existing-users/${id}`,
      { token: teamAdmin, body: { userIds: [dispatcher2Id] } },
    );
    expect(detached.status).toBe(200);
    expect(detached.body.map((user) => user.id)).toEqual([dispatcherId]);

    const lists = await teamLists(teamAdmin);
    expect(lists.body.find((list) => list.id === id)).toMatchObject({
      callListName: 'Hazmat response',
      numberCount: 2,
    });

    const deleted = await call(stack.api, 'PUT', `${base}/remove-call-list-team/${id}`, {
      token: teamAdmin,
    });
    expect(deleted).toMatchObject({ status: 200, body: { deleted: true } });
    expect(await storedNumbers(id)).toEqual([]);
    const gone = await call(stack.api, 'GET', `${base}/get-call-list-team/${id}`, {
      token: teamAdmin,
    });
    expect(gone).toMatchObject({ status: 404, body: { error: 'not-found' } });
    const deletedAgain = await call(stack.api, 'PUT', `${base}/remove-call-list-team/${id}`, {
      token: teamAdmin,
    });
    expect(deletedAgain.status).toBe(404);
  });

  it('gets 409 for a name the team already uses, ignoring case, when creating or renaming', async () => {
    const duplicate = await create(teamAdmin, { callListName: 'coast PATROL boats' });
    expect(duplicate).toMatchObject({ status: 409, body: { error: 'conflict' } });
    const other = await create(teamAdmin, { callListName: 'Bridge crew' });
    expect(other.status).toBe(201);
    const rename = await call(stack.api, 'PUT', `${base}/rename/${other.body.id}`, {
      token: teamAdmin,
      body: { callListName: 'Search and rescue VOLUNTEERS' },
    });
    expect(rename).toMatchObject({ status: 409, body: { error: 'conflict' } });
    // Changing only the case of its own name is fine.
    const recased = await call(stack.api, 'PUT', `${base}/rename/${other.body.id}`, {
      token: teamAdmin,
      body: { callListName: 'BRIDGE crew' },
    });
    expect(recased).toMatchObject({ status: 200, body: { callListName: 'BRIDGE crew' } });
    // Another team may use the same name.
    const platform = await create(owner, { callListName: 'Bridge crew' }, neighbourTeamId);
    expect(platform.status).toBe(201);
    await call(stack.api, 'PUT', `${base}/remove-call-list-team/${platform.body.id}`, {
      token: owner,
    });
    await call(stack.api, 'PUT', `${base}/remove-call-list-team/${other.body.id}`, {
      token: teamAdmin,
    });
  });

  it('gets 400 for invalid input, and nothing is stored', async () => {
    const before = await stack.database.db
      .selectFrom('call_lists')
      .select('id')
      .execute()
      .then((rows) => rows.length);
    for (const body of [
      { callListName: 'Mixed', phoneNumbers: ['+12025550180', '2025550181'] },
      { callListName: 'Mixed', phoneNumbers: ['+1202555'] },
      { callListName: 'Mixed', phoneNumbers: ['not a number'] },
      { callListName: '' },
      { callListName: '   ' },
      { callListName: 'x'.repeat(101) },
      { callListName: 'Extra', teamId: neighbourTeamId },
      {
        callListName: 'Too many',
        phoneNumbers: Array.from(
          { length: 201 },
          (_, i) => `+1202555${String(i).padStart(4, '0')}`,
        ),
      },
    ]) {
      const answer = await create(teamAdmin, body);
      expect(answer, JSON.stringify(body).slice(0, 80)).toMatchObject({
        status: 400,
        body: { error: 'validation-failed' },
      });
    }
    const after = await stack.database.db.selectFrom('call_lists').select('id').execute();
    expect(after.length).toBe(before);

    const [sar] = (await teamLists(teamAdmin)).body.filter(
      (list) => list.callListName === 'Search and Rescue volunteers',
    );
    const numbersBefore = await storedNumbers(sar!.id);
    for (const body of [
      { phoneNumber: '2025550199' },
      { phoneNumber: '+1 202 555' },
      { phoneNumber: '+12025550199', label: 'x'.repeat(101) },
      {},
    ]) {
      const answer = await call(stack.api, 'POST', `${base}/add-new-user/${sar!.id}`, {
        token: teamAdmin,
        body,
      });
      expect(answer.status).toBe(400);
    }
    expect(await storedNumbers(sar!.id)).toEqual(numbersBefore);

    for (const [method, path, body] of [
      ['GET', `${base}/get-call-list-team/not-a-uuid`, undefined],
      ['GET', `${base}/get-team-numbers/${sar!.id},nope`, undefined],
      ['PUT', `${base}/add-existing-users/${sar!.id}/nope`, undefined],
      ['PUT', `${base}/remove-existing-users/${sar!.id}`, { userIds: [] }],
      ['PUT', `${base}/remove-numbers/${sar!.id}`, { phoneNumbers: [] }],
      ['PUT', `${base}/rename/${sar!.id}`, { callListName: '' }],
    ] as const) {
      const answer = await call(stack.api, method, path, { token: teamAdmin, body });
      expect(answer.status, path).toBe(400);
      expect(answer.body).toMatchObject({ error: 'validation-failed' });
    }
    expect(await storedNumbers(sar!.id)).toEqual(numbersBefore);
  });

  it('can attach only users of the list’s team', async () => {
    const [sar] = (await teamLists(teamAdmin)).body;
    const answer = await call(
      stack.api,
      'PUT',
      `${base}/add-existing-users/${sar!.id}/${dispatcherId},${neighbourId}`,
      { token: teamAdmin },
    );
    expect(answer).toMatchObject({ status: 404, body: { error: 'not-found' } });
    const users = await call<ListUser[]>(stack.api, 'GET', `${base}/get-team-cl-users/${sar!.id}`, {
      token: teamAdmin,
    });
    expect(users.body).toEqual([]);
    const attachable = await call<ListUser[]>(
      stack.api,
      'GET',
      `${base}/team-users/${demoTeamId}`,
      {
        token: teamAdmin,
      },
    );
    const emails = attachable.body.map((user) => user.email);
    // Demo County's members (the seed has more than the documented accounts), and nobody else.
    expect(emails).toEqual(
      expect.arrayContaining([
        'dispatcher2@demo-county.test',
        'dispatcher@demo-county.test',
        'teamadmin@demo-county.test',
      ]),
    );
    expect(emails.filter((email) => !email.endsWith('@demo-county.test'))).toEqual([]);
  });
});

describe('deploying lists', () => {
  it('answers the distinct numbers of several lists and of their attached users, sorted', async () => {
    const lists = (await teamLists(teamAdmin)).body;
    const sar = lists.find((list) => list.callListName === 'Search and Rescue volunteers')!;
    const boats = lists.find((list) => list.callListName === 'Coast patrol boats')!;
    const extra = await create(teamAdmin, {
      callListName: 'Overlap',
      phoneNumbers: ['+12025550176', '+12025550170', '+12025550177'],
    });
    const attached = await call(
      stack.api,
      'PUT',
      `${base}/add-existing-users/${boats.id}/${dispatcherId},${dispatcher2Id}`,
      { token: teamAdmin },
    );
    expect(attached.status).toBe(200);

    const numbers = await call<Entry[]>(
      stack.api,
      'GET',
      `${base}/get-team-numbers/${sar.id},${boats.id},${extra.body.id},${sar.id}`,
      { token: dispatcher },
    );
    expect(numbers.status).toBe(200);
    // Dana's +1 202 555 0171 is on the SAR list already (its label wins); Devon's "555" is not
    // a valid number and is left out.
    expect(numbers.body).toEqual([
      { phoneNumber: '+12025550170', label: 'SAR team lead' },
      { phoneNumber: '+12025550171', label: 'SAR volunteer 1' },
      { phoneNumber: '+12025550172', label: 'SAR volunteer 2' },
      { phoneNumber: '+12025550175', label: 'Patrol boat 1' },
      { phoneNumber: '+12025550176', label: 'Patrol boat 2' },
      { phoneNumber: '+12025550177', label: null },
    ]);

    const boatsOnly = await call<Entry[]>(
      stack.api,
      'GET',
      `${base}/get-team-numbers/${boats.id}`,
      {
        token: dispatcher,
      },
    );
    expect(boatsOnly.body).toEqual([
      { phoneNumber: '+12025550171', label: 'Dana Dispatcher' },
      { phoneNumber: '+12025550175', label: 'Patrol boat 1' },
      { phoneNumber: '+12025550176', label: 'Patrol boat 2' },
    ]);

    const tooMany = Array.from({ length: 21 }, () => crypto.randomUUID()).join(',');
    const limited = await call(stack.api, 'GET', `${base}/get-team-numbers/${tooMany}`, {
      token: dispatcher,
    });
    expect(limited.status).toBe(400);
    // Twenty ids fit in the path; unknown ones answer 404 like another team's.
    const twenty = [sar.id, ...Array.from({ length: 19 }, () => crypto.randomUUID())].join(',');
    const unknown = await call(stack.api, 'GET', `${base}/get-team-numbers/${twenty}`, {
      token: dispatcher,
    });
    expect(unknown).toMatchObject({ status: 404, body: { error: 'not-found' } });

    await call(stack.api, 'PUT', `${base}/remove-existing-users/${boats.id}`, {
      token: teamAdmin,
      body: { userIds: [dispatcherId, dispatcher2Id] },
    });
    await call(stack.api, 'PUT', `${base}/remove-call-list-team/${extra.body.id}`, {
      token: teamAdmin,
    });
  });

  it('offers only lists with something to locate', async () => {
    const empty = await create(teamAdmin, { callListName: 'Empty for now' });
    const usersOnly = await create(teamAdmin, { callListName: 'Only Dana' });
    const invalidOnly = await create(teamAdmin, { callListName: 'Only Devon' });
    await call(
      stack.api,
      'PUT',
      `${base}/add-existing-users/${usersOnly.body.id}/${dispatcherId}`,
      {
        token: teamAdmin,
      },
    );
    await call(
      stack.api,
      'PUT',
      `${base}/add-existing-users/${invalidOnly.body.id}/${dispatcher2Id}`,
      { token: teamAdmin },
    );
    const deployable = await call<CallList[]>(
      stack.api,
      'GET',
      `${base}/get-deployable-call-list/${demoTeamId}`,
      { token: dispatcher },
    );
    expect(deployable.status).toBe(200);
    expect(deployable.body.map((list) => list.callListName)).toEqual([
      'Coast patrol boats',
      'Only Dana',
      'Search and Rescue volunteers',
    ]);
    const all = await teamLists(dispatcher);
    expect(all.body.map((list) => list.callListName)).toEqual([
      'Coast patrol boats',
      'Empty for now',
      'Only Dana',
      'Only Devon',
      'Search and Rescue volunteers',
    ]);
    for (const list of [empty, usersOnly, invalidOnly]) {
      await call(stack.api, 'PUT', `${base}/remove-call-list-team/${list.body.id}`, {
        token: teamAdmin,
      });
    }
  });
});

describe('search', () => {
  it('finds lists of the caller’s teams by part of the name, ignoring case', async () => {
    const found = await call<CallList[]>(stack.api, 'GET', `${base}/search?search=RESCUE`, {
      token: dispatcher,
    });
    expect(found.status).toBe(200);
    expect(found.body.map((list) => list.callListName)).toEqual(['Search and Rescue volunteers']);
    const all = await call<CallList[]>(stack.api, 'GET', `${base}/search?search=`, {
      token: dispatcher,
    });
    expect(all.body).toHaveLength(2);
    const wildcard = await call<CallList[]>(stack.api, 'GET', `${base}/search?search=%25`, {
      token: dispatcher,
    });
    expect(wildcard.body).toEqual([]);
    const other = await call<CallList[]>(stack.api, 'GET', `${base}/search?search=coast`, {
      token: neighbour,
    });
    expect(other).toMatchObject({ status: 200, body: [] });
  });
});

describe('a member who is not an admin', () => {
  it('reads the team’s lists but gets 403 on every change, which changes nothing', async () => {
    const lists = (await teamLists(dispatcher)).body;
    const sar = lists.find((list) => list.callListName === 'Search and Rescue volunteers')!;
    const numbersBefore = await storedNumbers(sar.id);
    for (const [method, path] of [
      ['GET', `${base}/get-call-list-team/${sar.id}`],
      ['GET', `${base}/get-team-cl-users/${sar.id}`],
      ['GET', `${base}/get-team-numbers/${sar.id}`],
      ['GET', `${base}/get-deployable-call-list/${demoTeamId}`],
      ['GET', `${base}/numbers/${sar.id}`],
    ] as const) {
      expect((await call(stack.api, method, path, { token: dispatcher })).status, path).toBe(200);
    }
    for (const [method, path, body] of [
      ['POST', `${base}/create-call-list/${demoTeamId}`, { callListName: 'Mine' }],
      ['PUT', `${base}/rename/${sar.id}`, { callListName: 'Mine' }],
      ['POST', `${base}/add-new-user/${sar.id}`, { phoneNumber: '+12025550199' }],
      ['PUT', `${base}/remove-numbers/${sar.id}`, { phoneNumbers: ['+12025550170'] }],
      ['PUT', `${base}/add-existing-users/${sar.id}/${dispatcherId}`, undefined],
      ['PUT', `${base}/remove-existing-users/${sar.id}`, { userIds: [dispatcherId] }],
      ['PUT', `${base}/remove-call-list-team/${sar.id}`, undefined],
      ['GET', `${base}/team-users/${demoTeamId}`, undefined],
    ] as const) {
      const answer = await call(stack.api, method, path, { token: dispatcher, body });
      expect(answer.status, path).toBe(403);
      expect(answer.body).toMatchObject({ error: 'forbidden' });
    }
    expect(await storedNumbers(sar.id)).toEqual(numbersBefore);
    expect((await teamLists(dispatcher)).body).toEqual(lists);
  });
});

describe('another team', () => {
  it('gets 404 on every endpoint for Demo County’s lists, reads and writes alike', async () => {
    const lists = (await teamLists(teamAdmin)).body;
    const sar = lists.find((list) => list.callListName === 'Search and Rescue volunteers')!;
    const numbersBefore = await storedNumbers(sar.id);
    const missing = crypto.randomUUID();
    for (const [method, path, body] of [
      ['GET', `${base}/get-team-call-lists/${demoTeamId}`, undefined],
      ['GET', `${base}/get-call-list-team/${sar.id}`, undefined],
      ['GET', `${base}/get-team-cl-users/${sar.id}`, undefined],
      ['GET', `${base}/get-team-numbers/${sar.id}`, undefined],
      ['GET', `${base}/get-deployable-call-list/${demoTeamId}`, undefined],
      ['GET', `${base}/numbers/${sar.id}`, undefined],
      ['GET', `${base}/team-users/${demoTeamId}`, undefined],
      ['POST', `${base}/create-call-list/${demoTeamId}`, { callListName: 'Theirs' }],
      ['PUT', `${base}/rename/${sar.id}`, { callListName: 'Theirs' }],
      ['POST', `${base}/add-new-user/${sar.id}`, { phoneNumber: '+12025550199' }],
      ['PUT', `${base}/remove-numbers/${sar.id}`, { phoneNumbers: ['+12025550170'] }],
      ['PUT', `${base}/add-existing-users/${sar.id}/${neighbourId}`, undefined],
      ['PUT', `${base}/remove-existing-users/${sar.id}`, { userIds: [neighbourId] }],
      ['PUT', `${base}/remove-call-list-team/${sar.id}`, undefined],
      // The same answers as for lists and teams that do not exist at all.
      ['GET', `${base}/get-call-list-team/${missing}`, undefined],
      ['GET', `${base}/get-team-call-lists/${missing}`, undefined],
    ] as const) {
      const answer = await call(stack.api, method, path, { token: neighbour, body });
      expect(answer.status, `${method} ${path}`).toBe(404);
      expect(answer.body).toMatchObject({ error: 'not-found' });
    }
    // One readable list among unreadable ones does not help.
    const [ownList] = (
      await call<CallList[]>(stack.api, 'GET', `${base}/search?search=`, { token: neighbour })
    ).body;
    expect(ownList).toBeUndefined();
    const mixed = await create(owner, { callListName: 'Neighbour list' }, neighbourTeamId);
    const both = await call(
      stack.api,
      'GET',
      `${base}/get-team-numbers/${mixed.body.id},${sar.id}`,
      { token: neighbour },
    );
    expect(both.status).toBe(404);

    expect(await storedNumbers(sar.id)).toEqual(numbersBefore);
    expect((await teamLists(teamAdmin)).body).toEqual(lists);
  });

  it('platform admins read and change any team’s lists', async () => {
    const lists = (await teamLists(owner)).body;
    expect(lists.map((list) => list.callListName)).toContain('Coast patrol boats');
    const boats = lists.find((list) => list.callListName === 'Coast patrol boats')!;
    const numbers = await call<Entry[]>(stack.api, 'GET', `${base}/get-team-numbers/${boats.id}`, {
      token: owner,
    });
    expect(numbers.body.map((entry) => entry.phoneNumber)).toEqual([
      '+12025550175',
      '+12025550176',
    ]);
  });
});
