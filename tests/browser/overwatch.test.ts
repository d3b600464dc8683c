import { sql } from 'kysely';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestSocket } from '../support/sockets';
import { expectAccessible } from '../support/browser';
import {
  apiSignIn,
  newPage,
  signInWithForm,
  startAuthEnvironment,
  type AuthEnvironment,
} from './auth-support';
import { trackingHelpers } from './tracking-support';

/**
 * Issue 14: the Overwatch screen, as a team admin uses it, with phones played over real caller
 * sockets. The map's tiles are unreachable here, as on a closed network: the offline map shows.
 */
let env: AuthEnvironment;

beforeAll(async () => {
  env = await startAuthEnvironment({ MAP_TILE_URL: 'http://127.0.0.1:9/{z}/{x}/{y}.png' });
});
afterAll(async () => {
  await env?.close();
});

const { waitForSms, outboxSms } = trackingHelpers(() => env);
const teamAdmin = 'teamadmin@demo-county.test';

// A square of about 1.7 × 2.2 km around (38.63, -90.2), St. Louis' riverfront.
const riverfront = {
  type: 'Polygon',
  coordinates: [
    [
      [-90.21, 38.62],
      [-90.19, 38.62],
      [-90.19, 38.64],
      [-90.21, 38.64],
      [-90.21, 38.62],
    ],
  ],
};

async function api<T>(token: string, method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${env.api.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (response.status >= 300)
    throw new Error(`${path} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as T;
}

/** A group made of the team's "Search and Rescue volunteers" call list, with one geofence. */
async function groupFromCallList(): Promise<{ id: string; numbers: string[] }> {
  const { token } = await apiSignIn(env.api.url, teamAdmin);
  const team = (
    await sql<{ id: string }>`select id from teams where team_name = 'Demo County 911'`.execute(
      env.database.db,
    )
  ).rows[0]!;
  const lists = await api<{ id: string; callListName: string }[]>(
    token,
    'GET',
    `/api/v1/call-list/get-team-call-lists/${team.id}`,
  );
  const list = lists.find((l) => l.callListName === 'Search and Rescue volunteers')!;
  const entries = await api<{ phoneNumber: string; label: string | null }[]>(
    token,
    'GET',
    `/api/v1/call-list/get-team-numbers/${list.id}`,
  );
  const group = await api<{ id: string }>(token, 'POST', '/api/v1/overwatch/groups', {
    name: 'Riverfront search',
    language: 'en',
    members: entries
      .slice(0, 2)
      .map((entry) => ({ phoneNumber: entry.phoneNumber, label: entry.label })),
    geofences: [{ name: 'Riverfront', polygon: riverfront }],
    staleAfterSeconds: 10,
    movement: 'walking',
    speedMps: 1.5,
    maxSpeedMps: 12,
  });
  return { id: group.id, numbers: entries.slice(0, 2).map((entry) => entry.phoneNumber) };
}

async function phoneFor(number: string): Promise<TestSocket> {
  const text = await waitForSms(number);
  const token = /\/share\?token=([A-Za-z0-9_-]{43})/.exec(text.body)![1];
  const socket = await TestSocket.open(`${env.api.wsUrl}/api/v1/caller/socket?token=${token}`);
  socket.send('sharing', { sharing: true });
  return socket;
}

const row = (page: Page, name: string) =>
  page
    .getByRole('list', { name: 'Phones in this watch' })
    .getByRole('button', { name: new RegExp(name) });

describe('Overwatch', { timeout: 120_000 }, () => {
  it('starts a watch on a group, shows two phones sharing, a geofence alert, a stale phone whose circle grows, and replays the past', async () => {
    const group = await groupFromCallList();
    const { page, context } = await newPage(env.browser);
    await signInWithForm(page, env.api.url, teamAdmin);
    await page.getByRole('button', { name: /user menu/i }).click();
    await page.getByRole('menuitem', { name: 'Overwatch' }).click();
    await page.getByRole('heading', { name: 'Overwatch', level: 1 }).waitFor();
    // Tiles cannot load here: the map says it is drawing the offline map.
    await page.getByRole('combobox', { name: 'Group' }).click();
    await page.getByRole('option', { name: /Riverfront search/ }).click();
    await page.getByRole('button', { name: 'Start watch' }).click();
    await page.getByRole('heading', { name: 'Riverfront search', level: 1 }).waitFor();
    await page.getByText('offline map', { exact: false }).first().waitFor();

    const [lead, volunteer] = group.numbers as [string, string];
    const walker = await phoneFor(lead);
    const lost = await phoneFor(volunteer);
    await row(page, 'SAR team lead').getByText('Opened, not sharing yet').waitFor();

    const now = Date.now();
    // The team lead: 150 m west of the geofence two minutes ago, then inside it.
    walker.send('fix', {
      latitude: 38.63,
      longitude: -90.2117,
      accuracy: 8,
      capturedAt: now - 120_000,
    });
    walker.send('fix', {
      latitude: 38.63,
      longitude: -90.2085,
      accuracy: 8,
      capturedAt: now - 1_000,
    });
    // The volunteer: one fix a minute old, then nothing (past the group's 10 s).
    lost.send('fix', { latitude: 38.6, longitude: -90.25, accuracy: 20, capturedAt: now - 60_000 });

    const alerts = page.getByTestId('overwatch-alerts');
    await alerts.getByText('Entered Riverfront').waitFor();
    expect(await alerts.getByText('Entered Riverfront').count()).toBe(1);
    await row(page, 'SAR team lead').getByText('Sharing').waitFor();
    await row(page, 'SAR volunteer 1').getByText('Stale').waitFor();

    // The stale phone's circle grows with its fix's age, at walking speed.
    await row(page, 'SAR volunteer 1').click();
    const uncertainty = page.getByTestId('overwatch-uncertainty');
    await uncertainty.getByText(/grown with the fix’s age/).waitFor();
    const metres = async () =>
      Number(/Within (\d+) m/.exec((await uncertainty.textContent()) ?? '')![1]);
    const first = await metres();
    expect(first).toBeGreaterThan(20);
    await page.waitForFunction(
      ([selector, before]) => {
        const text = document.querySelector(selector)?.textContent ?? '';
        return Number(/Within (\d+) m/.exec(text)?.[1] ?? 0) > before;
      },
      ['[data-testid="overwatch-uncertainty"]', first] as const,
    );
    await expect
      .poll(() => page.getByTestId('overwatch-announcer').textContent())
      .toMatch(/Entered Riverfront/);
    await expectAccessible(page, 'Overwatch with a stale phone selected');

    // The timeline: at its start the team lead was still outside the geofence.
    await row(page, 'SAR team lead').click();
    const thumb = page.getByRole('slider', { name: /Timeline/ });
    await thumb.focus();
    await thumb.press('Home');
    await page
      .getByTestId('timeline-moment')
      .getByText(/Replaying/)
      .waitFor();
    await page
      .getByText('Last fix', { exact: false })
      .getByText(/38\.63000, -90\.21170/)
      .waitFor();
    await page.getByRole('button', { name: 'Back to live' }).click();
    await page.getByText(/38\.63000, -90\.20850/).waitFor();
    // Once per crossing, however often the screen has redrawn since.
    expect(await alerts.getByText('Entered Riverfront').count()).toBe(1);

    // The stale volunteer is texted a new link from its details.
    await row(page, 'SAR volunteer 1').click();
    await page.getByRole('button', { name: 'Text a new link' }).click();
    await page.getByText('Texted.', { exact: true }).waitFor();
    expect(await outboxSms(volunteer)).toHaveLength(2);

    await walker.close();
    await lost.close();
    await page.getByRole('button', { name: 'End watch' }).click();
    await page.getByText('This watch has ended').waitFor();
    await context.close();
  });

  it('is closed to the admin of a basic-level team, with an explanation', async () => {
    const { page, context } = await newPage(env.browser);
    await signInWithForm(page, env.api.url, 'teamadmin@neighbour-county.test');
    await page.getByRole('button', { name: /user menu/i }).click();
    await page.getByRole('menuitem', { name: 'Training Videos' }).waitFor();
    expect(await page.getByRole('menuitem', { name: 'Overwatch' }).count()).toBe(0);
    await page.keyboard.press('Escape');
    await page.goto(`${env.api.url}/overwatch`);
    await page.waitForURL(`${env.api.url}/dashboard`);
    await page.getByText(/premiere level/).waitFor();
    await context.close();
  });
});
