import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, signIn, startAuthStack, type AuthStack } from '../auth/support';
import {
  callerSocket,
  dispatcherEmail,
  joinSession,
  linkTokenIn,
  otherTeamEmail,
  outboxSms,
  startStream,
} from './support';

let stack: AuthStack;
let exportDir: string;

beforeAll(async () => {
  exportDir = mkdtempSync(join(tmpdir(), 'locus-exports-'));
  stack = await startAuthStack({ workerEnv: { EXPORT_DIR: exportDir } });
});
afterAll(async () => {
  await stack?.close();
  rmSync(exportDir, { recursive: true, force: true });
});

/** A session whose caller sent these fixes, ended by its dispatcher. */
async function trackAndEnd(
  email: string,
  phoneNumber: string,
  fixes: Record<string, number>[],
): Promise<string> {
  const token = await signIn(stack.api, email);
  const request = await startStream(stack.api, token, phoneNumber);
  const socket = await joinSession(stack.api, request);
  await call(stack.api, 'POST', '/api/v1/location/request-text-message-location', {
    token,
    body: { connectionRequestUuid: request.uuid, language: 'en' },
  });
  const caller = await callerSocket(
    stack.api,
    linkTokenIn((await outboxSms(stack.api, phoneNumber))[0]!.body),
  );
  for (const fix of fixes) caller.send('fix', fix);
  await socket.count('new-location-available', fixes.length);
  const ended = await call(
    stack.api,
    'POST',
    `/api/v1/location/set-date-time-completed/${request.uuid}`,
    { token, body: {} },
  );
  expect(ended.status).toBe(200);
  await caller.closed();
  await socket.closed();
  return request.uuid;
}

/** Bounded by the test's timeout: the export is written by the worker. */
async function waitForExport(
  sessionId: string,
): Promise<{ file_name: string | null; storage_key: string | null }> {
  for (;;) {
    const row = await sql<{
      file_name: string | null;
      storage_key: string | null;
      stored_at: Date | null;
    }>`
      select file_name, storage_key, stored_at from session_exports where session_id = ${sessionId}`.execute(
      stack.database.db,
    );
    if (row.rows[0]?.stored_at) return row.rows[0];
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('the export of an ended session', () => {
  it('writes every fix as SPEC export rows, named by the number and the first capture time', async () => {
    const first = Date.UTC(2026, 10, 23, 9, 30, 15, 250);
    const sessionId = await trackAndEnd(dispatcherEmail, '+12025550190', [
      {
        latitude: 38.8977,
        longitude: -77.0365,
        accuracy: 12.3456,
        altitude: 17.123456,
        capturedAt: first,
      },
      { latitude: 38.8978, longitude: -77.0364, accuracy: 8, capturedAt: first + 4_000 },
    ]);
    const stored = await waitForExport(sessionId);
    const fileName = '+12025550190_2026-11-23T09:30:15.250Z.json';
    expect(stored.file_name).toBe(fileName);
    const team = await sql<{
      id: string;
    }>`select id from teams where team_name = 'Demo County 911'`.execute(stack.database.db);
    const path = join(exportDir, team.rows[0]!.id, sessionId, fileName);
    expect(readFileSync(path, 'utf8')).toBe(
      JSON.stringify([
        {
          Dispatcher: 'Dana Dispatcher',
          PhoneNumber: '+12025550190',
          Longitude: -77.0365,
          Latitude: 38.8977,
          UncertaintyRadiusInMeters: 12.35,
          Altitude: 17.1235,
          Address: null,
          CapturedFromSource: 'TEXT_MESSAGE',
          CapturedAt: 'Mon, 23 Nov 2026 09:30:15 GMT',
        },
        {
          Dispatcher: 'Dana Dispatcher',
          PhoneNumber: '+12025550190',
          Longitude: -77.0364,
          Latitude: 38.8978,
          UncertaintyRadiusInMeters: 8,
          Altitude: null,
          Address: null,
          CapturedFromSource: 'TEXT_MESSAGE',
          CapturedAt: 'Mon, 23 Nov 2026 09:30:19 GMT',
        },
      ]),
    );
    // Beside it, the signed evidence file (issue 15; tests/evidence checks its content).
    expect(readdirSync(join(exportDir, team.rows[0]!.id, sessionId)).sort()).toEqual([
      fileName.replace(/\.json$/, '.evidence.json'),
      fileName,
    ]);
    // Callers' movements: readable by the worker's own account only (issue 17).
    const mode = (target: string) => statSync(target).mode & 0o777;
    expect(mode(path)).toBe(0o600);
    expect(mode(join(exportDir, team.rows[0]!.id, sessionId))).toBe(0o700);
    expect(mode(join(exportDir, team.rows[0]!.id))).toBe(0o700);
  });

  it('exports nothing for a team whose export setting is off', async () => {
    const sessionId = await trackAndEnd(otherTeamEmail, '+12025550191', [
      { latitude: 40, longitude: -75, accuracy: 5, capturedAt: Date.now() - 1_000 },
    ]);
    const row = await sql`select 1 from session_exports where session_id = ${sessionId}`.execute(
      stack.database.db,
    );
    expect(row.rows).toEqual([]);
    const team = await sql<{
      id: string;
    }>`select id from teams where team_name = 'Neighbouring County'`.execute(stack.database.db);
    expect(existsSync(join(exportDir, team.rows[0]!.id))).toBe(false);
  });
});
