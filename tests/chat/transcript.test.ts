import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, startAuthStack, type AuthStack } from '../auth/support';
import { fixAt } from '../support/sockets';
import { dispatcherEmail, otherTeamEmail } from '../tracking/support';
import { chat, chatSession, FakeTranslator, initiateChat } from './support';

let stack: AuthStack;
let exportDir: string;

beforeAll(async () => {
  exportDir = mkdtempSync(join(tmpdir(), 'locus-chat-exports-'));
  stack = await startAuthStack({ workerEnv: { EXPORT_DIR: exportDir } });
  stack.api.app.locus.chat.translator = new FakeTranslator([
    ['en', 'es'],
    ['es', 'en'],
  ]);
});
afterAll(async () => {
  await stack?.close();
  rmSync(exportDir, { recursive: true, force: true });
});

/** The transcript's own rendering of a time, written out by hand: UTC, and Chicago (CST, UTC−6, in November). */
function times(at: Date): string {
  const utc = at.toISOString().slice(0, 19).replace('T', ' ');
  const chicago = new Date(at.getTime() - 6 * 3600_000)
    .toISOString()
    .slice(0, 19)
    .replace('T', ' ');
  return `[${utc} UTC | ${chicago} CST]`;
}

async function download(uuid: string, token: string) {
  const response = await fetch(`${stack.api.url}/api/v1/location/chat-transcript/${uuid}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

describe('Download Chat', () => {
  it('is a text file with every message in UTC and the team zone, in both languages, and part of the export', async () => {
    const phone = '+12025550191';
    const session = await chatSession(stack.api, dispatcherEmail, phone, 'es');
    session.caller.send('chat-join', { lastSeq: 0 });
    expect((await initiateChat(stack.api, session)).status).toBe(200);
    await session.caller.event('chat-opened');
    await chat(session.dispatcher, {
      callerId: session.callerId,
      clientId: crypto.randomUUID(),
      text: 'Where are you?',
    });
    await chat(session.caller, { text: 'En la cocina\n<b>rápido</b>' });

    const rows = await sql<{ sent_at: Date }>`
      select sent_at from chat_messages where session_id = ${session.request.uuid} order by seq`.execute(
      stack.database.db,
    );
    const [first, second] = rows.rows.map((row) => row.sent_at);
    const answer = await download(session.request.uuid, session.authToken);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    // No ':' (Windows refuses it) and whole seconds: chat_<number>_2026-11-25T10-00-00Z.txt.
    const time = first!.toISOString().slice(0, 19).replace(/:/g, '-');
    const fileName = `chat_${phone}_${time}Z.txt`;
    expect(fileName).toMatch(/^chat_\+\d+_\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ\.txt$/);
    expect(answer.headers.get('content-disposition')).toBe(`attachment; filename="${fileName}"`);
    expect(answer.text).toContain('Times: UTC and America/Chicago');
    expect(answer.text).toContain(
      [
        `${times(first!)} Dispatcher Dana Dispatcher`,
        '  Original (English): Where are you?',
        '  Translation (Spanish): [es] Where are you?',
        '',
        `${times(second!)} Caller ${phone}`,
        '  Original (Spanish): En la cocina',
        '    <b>rápido</b>',
        '  Translation (English): [en] En la cocina',
        '    <b>rápido</b>',
      ].join('\n'),
    );

    // Another team's dispatcher: as if there were no such session. The team's admin may read it.
    const outsider = await signIn(stack.api, otherTeamEmail);
    expect((await download(session.request.uuid, outsider)).status).toBe(404);
    const admin = await signIn(stack.api, 'teamadmin@demo-county.test');
    expect((await download(session.request.uuid, admin)).text).toBe(answer.text);

    // Ended, with the team's export on: the transcript lies beside the fixes' JSON.
    session.caller.send('fix', fixAt(Date.now() - 5_000, 0));
    await session.dispatcher.event('new-location-available');
    const ended = await fetch(
      `${stack.api.url}/api/v1/location/set-date-time-completed/${session.request.uuid}`,
      {
        method: 'POST',
        headers: {
          authorization: `Bearer ${session.authToken}`,
          'content-type': 'application/json',
        },
        body: '{}',
      },
    );
    expect(ended.status).toBe(200);
    // Still the dispatcher's to download once the session has ended.
    expect((await download(session.request.uuid, session.authToken)).text).toBe(answer.text);
    const team = await sql<{ id: string }>`
      select id from teams where team_name = 'Demo County 911'`.execute(stack.database.db);
    const folder = join(exportDir, team.rows[0]!.id, session.request.uuid);
    await waitForExport(session.request.uuid);
    const files = readdirSync(folder).sort();
    // The transcript, the rows and the signed evidence file (issue 15).
    expect(files).toHaveLength(3);
    expect(files).toContain(fileName);
    expect(files.filter((name) => name.endsWith('.evidence.json'))).toHaveLength(1);
    expect(files.filter((name) => /\d{3}Z\.json$/.test(name))).toHaveLength(1);
    expect(readFileSync(join(folder, fileName), 'utf8')).toBe(answer.text);
  });
});

/** Bounded by the test's timeout: the export is written by the worker. */
async function waitForExport(sessionId: string): Promise<void> {
  for (;;) {
    const row = await sql<{ stored_at: Date | null }>`
      select stored_at from session_exports where session_id = ${sessionId}`.execute(
      stack.database.db,
    );
    if (row.rows[0]?.stored_at) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
