import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, signIn, startAuthStack, type AuthStack } from '../auth/support';

// Issue 14: Overwatch groups (/admin/overwatch). A premiere-level team's admins manage its
// groups; a basic-level team answers 403, another team's group 404, a dispatcher 403. Bad input
// answers 400 naming the problem and changes nothing.

interface Member {
  phoneNumber: string;
  label: string | null;
  optedOut: boolean;
}
interface Geofence {
  id: string;
  name: string;
  polygon: { type: 'Polygon'; coordinates: [number, number][][] };
}
interface Group {
  id: string;
  teamId: string;
  teamName: string;
  name: string;
  language: string;
  members: Member[];
  geofences: Geofence[];
  staleAfterSeconds: number;
  movement: string;
  speedMps: number;
  maxSpeedMps: number;
  archivedAt: string | null;
  createdAt: string;
  updatedAt: string;
}
interface Summary {
  id: string;
  teamId: string;
  teamName: string;
  name: string;
  archivedAt: string | null;
  memberCount: number;
  optedOutCount: number;
  geofenceCount: number;
}
interface ErrorBody {
  error: string;
  message: string;
  issues?: { path: string; message: string }[];
}

const base = '/api/v1/overwatch/groups';

let stack: AuthStack;
let teamAdmin: string;
let dispatcher: string;
let neighbourAdmin: string;
let owner: string;
let demoTeamId: string;

const square = (west: number, south: number, size: number) => ({
  type: 'Polygon' as const,
  coordinates: [
    [
      [west, south],
      [west + size, south],
      [west + size, south + size],
      [west, south + size],
      [west, south],
    ] as [number, number][],
  ],
});

/** Crosses itself: edge 1 ([0,0]→[2,2]) crosses edge 3 ([2,0]→[0,1]). */
const bowTie = {
  type: 'Polygon',
  coordinates: [
    [
      [0, 0],
      [2, 2],
      [2, 0],
      [0, 1],
      [0, 0],
    ],
  ],
};

/** A valid ring (a circle) of `vertices` corners, closed. */
function circle(vertices: number) {
  const ring: [number, number][] = [];
  for (let i = 0; i < vertices; i++) {
    const angle = (2 * Math.PI * i) / vertices;
    ring.push([-88.08 + 0.01 * Math.cos(angle), 41.52 + 0.01 * Math.sin(angle)]);
  }
  ring.push(ring[0]!);
  return { type: 'Polygon', coordinates: [ring] };
}

const list = (token: string, archived?: boolean) =>
  call<Summary[]>(
    stack.api,
    'GET',
    archived === undefined ? base : `${base}?archived=${archived}`,
    { token },
  );
const read = (token: string, id: string) =>
  call<Group & ErrorBody>(stack.api, 'GET', `${base}/${id}`, { token });
const create = (token: string, body: unknown) =>
  call<Group & ErrorBody>(stack.api, 'POST', base, { token, body });
const update = (token: string, id: string, body: unknown) =>
  call<Group & ErrorBody>(stack.api, 'PUT', `${base}/${id}`, { token, body });
const archive = (token: string, id: string) =>
  call<Group & ErrorBody>(stack.api, 'POST', `${base}/${id}/archive`, { token, body: {} });
const restore = (token: string, id: string) =>
  call<Group & ErrorBody>(stack.api, 'POST', `${base}/${id}/restore`, { token, body: {} });

/** What a form would send back for a group it read. */
function inputOf(group: Group) {
  return {
    name: group.name,
    language: group.language,
    members: group.members.map(({ phoneNumber, label }) => ({ phoneNumber, label })),
    geofences: group.geofences,
    staleAfterSeconds: group.staleAfterSeconds,
    movement: group.movement,
    speedMps: group.speedMps,
    maxSpeedMps: group.maxSpeedMps,
  };
}

async function auditActions(groupId: string) {
  return stack.database.db
    .selectFrom('audit_log')
    .select(['action', 'team_id'])
    .where('subject', '=', groupId)
    .orderBy('id')
    .execute();
}

beforeAll(async () => {
  stack = await startAuthStack({ worker: false });
  [teamAdmin, dispatcher, neighbourAdmin, owner] = await Promise.all([
    signIn(stack.api, 'teamadmin@demo-county.test'),
    signIn(stack.api, 'dispatcher@demo-county.test'),
    signIn(stack.api, 'teamadmin@neighbour-county.test'),
    signIn(stack.api, 'owner@locus.test'),
  ]);
  const team = await stack.database.db
    .selectFrom('teams')
    .select('id')
    .where('team_name', '=', 'Demo County 911')
    .executeTakeFirstOrThrow();
  demoTeamId = team.id;
});

afterAll(async () => {
  await stack?.close();
});

describe('Overwatch groups as the Demo County team admin', () => {
  it('lists the seeded group with its counts', async () => {
    const groups = await list(teamAdmin);
    expect(groups.status).toBe(200);
    expect(groups.body).toEqual([
      expect.objectContaining({
        teamId: demoTeamId,
        teamName: 'Demo County 911',
        name: 'Flood zone volunteers',
        archivedAt: null,
        memberCount: 4,
        optedOutCount: 0,
        geofenceCount: 1,
      }),
    ]);
  });

  it('creates, reads, updates, archives and restores a group', async () => {
    // One number from a call list, one typed without +1, the call-list one again (merged).
    const listNumbers = await stack.database.db
      .selectFrom('call_list_numbers as n')
      .innerJoin('call_lists as l', 'l.id', 'n.call_list_id')
      .select(['n.phone_number', 'n.label'])
      .where('l.name', '=', 'Coast patrol boats')
      .orderBy('n.phone_number')
      .execute();
    const fromList = listNumbers[0]!;
    const created = await create(teamAdmin, {
      name: 'Harbour watch',
      language: 'es',
      members: [
        { phoneNumber: fromList.phone_number, label: fromList.label },
        { phoneNumber: '202 555 0191', label: null },
        { phoneNumber: fromList.phone_number, label: 'ignored: the first label wins' },
      ],
      geofences: [{ name: 'Harbour', polygon: square(-88.09, 41.52, 0.01) }],
      movement: 'boat',
      speedMps: 10,
      maxSpeedMps: 30,
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      teamId: demoTeamId,
      teamName: 'Demo County 911',
      name: 'Harbour watch',
      language: 'es',
      members: [
        { phoneNumber: fromList.phone_number, label: fromList.label, optedOut: false },
        { phoneNumber: '+12025550191', label: null, optedOut: false },
      ],
      geofences: [{ name: 'Harbour', polygon: square(-88.09, 41.52, 0.01) }],
      staleAfterSeconds: 120,
      movement: 'boat',
      speedMps: 10,
      maxSpeedMps: 30,
      archivedAt: null,
    });
    const id = created.body.id;
    const harbourId = created.body.geofences[0]!.id;
    expect(harbourId).toMatch(/^[0-9a-f-]{36}$/);

    expect((await read(teamAdmin, id)).body).toEqual(created.body);

    // The form sends the kept geofence back with its id; a new one gets a new id.
    const updated = await update(teamAdmin, id, {
      ...inputOf(created.body),
      name: 'Harbour and marina watch',
      members: [
        ...inputOf(created.body).members,
        { phoneNumber: '+1 (202) 555-0192', label: 'Marina office' },
      ],
      geofences: [
        { name: 'Marina', polygon: square(-88.07, 41.53, 0.005) },
        { ...created.body.geofences[0]!, name: 'Harbour basin' },
      ],
    });
    expect(updated.status).toBe(200);
    expect(updated.body.name).toBe('Harbour and marina watch');
    expect(updated.body.members.map((member) => member.phoneNumber)).toEqual([
      fromList.phone_number,
      '+12025550191',
      '+12025550192',
    ]);
    expect(updated.body.geofences.map(({ name }) => name)).toEqual(['Marina', 'Harbour basin']);
    expect(updated.body.geofences[1]!.id).toBe(harbourId);
    expect(updated.body.geofences[0]!.id).not.toBe(harbourId);
    expect((await read(teamAdmin, id)).body).toEqual(updated.body);

    const archived = await archive(teamAdmin, id);
    expect(archived.status).toBe(200);
    expect(archived.body.archivedAt).not.toBeNull();
    expect((await list(teamAdmin)).body.map((group) => group.id)).not.toContain(id);
    const archivedList = await list(teamAdmin, true);
    expect(archivedList.body.map((group) => group.id)).toEqual([id]);
    expect(archivedList.body[0]).toMatchObject({ memberCount: 3, geofenceCount: 2 });

    // An archived group may still be edited.
    const renamed = await update(teamAdmin, id, {
      ...inputOf(archived.body),
      name: 'Harbour watch (winter)',
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body.archivedAt).toBe(archived.body.archivedAt);

    const restored = await restore(teamAdmin, id);
    expect(restored.status).toBe(200);
    expect(restored.body.archivedAt).toBeNull();
    expect((await list(teamAdmin)).body.map((group) => group.name)).toEqual([
      'Flood zone volunteers',
      'Harbour watch (winter)',
    ]);
    expect((await list(teamAdmin, true)).body).toEqual([]);

    expect(await auditActions(id)).toEqual(
      [
        'overwatch-group.created',
        'overwatch-group.updated',
        'overwatch-group.archived',
        'overwatch-group.updated',
        'overwatch-group.restored',
      ].map((action) => ({ action, team_id: demoTeamId })),
    );
  });

  it('shows a number that texted STOP as opted out', async () => {
    const created = await create(teamAdmin, {
      name: 'Opt-out check',
      members: [
        { phoneNumber: '+12025550193', label: 'Still in' },
        { phoneNumber: '+12025550194', label: 'Texted STOP' },
      ],
    });
    expect(created.status).toBe(201);
    expect(created.body.members.map((member) => member.optedOut)).toEqual([false, false]);
    await stack.database.db
      .insertInto('sms_opt_outs')
      .values({ phone_number: '+12025550194' })
      .execute();
    const group = await read(teamAdmin, created.body.id);
    expect(group.body.members).toEqual([
      { phoneNumber: '+12025550193', label: 'Still in', optedOut: false },
      { phoneNumber: '+12025550194', label: 'Texted STOP', optedOut: true },
    ]);
    const summary = (await list(teamAdmin)).body.find((row) => row.id === created.body.id);
    expect(summary).toMatchObject({ memberCount: 2, optedOutCount: 1 });
  });
});

describe('bad input', () => {
  let group: Group;
  beforeAll(async () => {
    const created = await create(teamAdmin, {
      name: 'Unchanged',
      members: [{ phoneNumber: '+12025550195', label: 'One' }],
      geofences: [{ name: 'Field', polygon: square(-88.1, 41.5, 0.01) }],
    });
    expect(created.status).toBe(201);
    group = created.body;
  });

  const cases: [string, (input: ReturnType<typeof inputOf>) => unknown, RegExp][] = [
    [
      'a self-intersecting polygon (bow tie)',
      (input) => ({ ...input, geofences: [{ name: 'Bow tie', polygon: bowTie }] }),
      /The polygon crosses itself \(edge 1 crosses edge 3\)\./,
    ],
    [
      'a polygon of 1,001 vertices',
      (input) => ({ ...input, geofences: [{ name: 'Too fine', polygon: circle(1001) }] }),
      /at most 1000 vertices; this one has 1001/,
    ],
    [
      'a geofence that is not a GeoJSON Polygon',
      (input) => ({
        ...input,
        geofences: [{ name: 'A point', polygon: { type: 'Point', coordinates: [-88.08, 41.52] } }],
      }),
      /A geofence must be a GeoJSON Polygon\./,
    ],
    [
      'an unclosed ring',
      (input) => {
        const ring = square(-88.1, 41.5, 0.01).coordinates[0]!.slice(0, 4);
        return {
          ...input,
          geofences: [{ name: 'Open', polygon: { type: 'Polygon', coordinates: [ring] } }],
        };
      },
      /A polygon ring must end with its first position/,
    ],
    [
      'an invalid phone number',
      (input) => ({ ...input, members: [...input.members, { phoneNumber: '555', label: null }] }),
      /“555” is not a valid phone number\./,
    ],
  ];

  it.each(cases)('%s answers 400 naming the problem and changes nothing', async (_, bad, named) => {
    const before = await read(teamAdmin, group.id);
    const rejected = await update(teamAdmin, group.id, bad(inputOf(before.body)));
    expect(rejected.status).toBe(400);
    expect(rejected.body.error).toBe('validation-failed');
    expect(rejected.body.message).toMatch(named);
    expect((await read(teamAdmin, group.id)).body).toEqual(before.body);

    const notCreated = await create(teamAdmin, { ...(bad(inputOf(before.body)) as object) });
    expect(notCreated.status).toBe(400);
    expect(notCreated.body.message).toMatch(named);
  });

  it('names the geofence in the message, and the field in the issues', async () => {
    const rejected = await update(teamAdmin, group.id, {
      ...inputOf(group),
      geofences: [group.geofences[0], { name: 'Bow tie', polygon: bowTie }],
    });
    expect(rejected.status).toBe(400);
    expect(rejected.body.message).toBe(
      'The request body is not valid: geofence 2 (“Bow tie”): The polygon crosses itself (edge 1 crosses edge 3).',
    );
    expect(rejected.body.issues).toEqual([
      {
        path: 'geofences.1.polygon.coordinates.0',
        message: 'The polygon crosses itself (edge 1 crosses edge 3).',
      },
    ]);
  });

  it('creates no group from a rejected body', async () => {
    const names = (await list(teamAdmin)).body.map((row) => row.name);
    expect(names).not.toContain('Bow tie group');
    const rejected = await create(teamAdmin, {
      name: 'Bow tie group',
      members: [],
      geofences: [{ name: 'Bow tie', polygon: bowTie }],
    });
    expect(rejected.status).toBe(400);
    expect((await list(teamAdmin)).body.map((row) => row.name)).toEqual(names);
  });
});

describe('who may manage groups', () => {
  let demoGroupId: string;
  let locusGroupId: string;

  beforeAll(async () => {
    demoGroupId = (await list(teamAdmin)).body.find(
      (row) => row.name === 'Flood zone volunteers',
    )!.id;
    // The platform owner's own team has the premiere level: its group is another team's.
    const created = await create(owner, { name: 'Locus staff', members: [] });
    expect(created.status).toBe(201);
    expect(created.body.teamName).toBe('Locus');
    locusGroupId = created.body.id;
  });

  it('answers 403 to the admin of a team without the premiere level', async () => {
    for (const answer of [
      await list(neighbourAdmin),
      await create(neighbourAdmin, { name: 'Not allowed', members: [] }),
    ]) {
      expect(answer.status).toBe(403);
      expect(answer.body).toMatchObject({ error: 'forbidden' });
      expect((answer.body as ErrorBody).message).toMatch(/premiere level/);
    }
    // Demo County's group is another team's for them.
    expect((await read(neighbourAdmin, demoGroupId)).status).toBe(404);
  });

  it('answers 403 to a dispatcher', async () => {
    for (const answer of [
      await list(dispatcher),
      await read(dispatcher, demoGroupId),
      await create(dispatcher, { name: 'Not allowed', members: [] }),
      await create(dispatcher, { name: 'Not allowed', members: [], teamId: demoTeamId }),
      await archive(dispatcher, demoGroupId),
    ]) {
      expect(answer.status).toBe(403);
      expect(answer.body).toMatchObject({ error: 'forbidden' });
    }
    expect((await read(teamAdmin, demoGroupId)).body.archivedAt).toBeNull();
  });

  it('answers 404 for another team’s group, and changes nothing', async () => {
    const before = await read(owner, locusGroupId);
    for (const answer of [
      await read(teamAdmin, locusGroupId),
      await update(teamAdmin, locusGroupId, { name: 'Taken over', members: [] }),
      await archive(teamAdmin, locusGroupId),
      await restore(teamAdmin, locusGroupId),
      await read(teamAdmin, '00000000-0000-4000-8000-000000000000'),
    ]) {
      expect(answer.status).toBe(404);
      expect(answer.body).toMatchObject({ error: 'not-found' });
    }
    expect((await read(owner, locusGroupId)).body).toEqual(before.body);
    expect((await list(teamAdmin)).body.map((row) => row.id)).not.toContain(locusGroupId);
  });

  it('answers 404 when a new group names a team the admin is not on', async () => {
    const locusTeamId = (await read(owner, locusGroupId)).body.teamId;
    const answer = await create(teamAdmin, { name: 'Elsewhere', members: [], teamId: locusTeamId });
    expect(answer.status).toBe(404);
    expect(answer.body).toMatchObject({ error: 'not-found' });
  });

  it('lets a platform admin manage a premiere team’s group', async () => {
    const group = await read(owner, demoGroupId);
    expect(group.status).toBe(200);
    expect(group.body.name).toBe('Flood zone volunteers');
  });
});
