import { readFileSync } from 'node:fs';
import type { Download, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { idsOf, insertSession, insertSignIn } from '../metrics/fixtures';
import { expectAccessible } from '../support/browser';
import {
  apiSignIn,
  newPage,
  signInWithForm,
  startAuthEnvironment,
  type AuthEnvironment,
} from './auth-support';

/**
 * Issue 13, "Must show": the team admin of Demo County opens TEAM | USER METRICS, changes the
 * range, sees the charts drawn, and downloads a CSV whose rows are the API's answer for the same
 * range; the chat card and the Sessions table are the API's answers too (and a range with more
 * sessions than the table lists says so); a dispatcher's panel shows their totals, languages and
 * busiest hours as the API counts them; the neighbouring (basic) team's admin has no metrics item
 * and gets 403 from the API; the platform owner sees every team side by side.
 */
let env: AuthEnvironment;
let demoCounty: string;
let neighbourCounty: string;
let danaId: string;
/** When Dana's texted caller's session started (ms). */
let linkStartedAt: number;

const url = (path: string) => `${env.api.url}${path}`;
const hoursAgo = (hours: number, plusSeconds = 0) =>
  new Date(Date.now() - hours * 3_600_000 + plusSeconds * 1_000);
const after = (start: Date, seconds: number) => new Date(start.getTime() + seconds * 1_000);

beforeAll(async () => {
  env = await startAuthEnvironment();
  const db = env.database.db;
  const ids = await idsOf(db);
  demoCounty = ids.team('Demo County 911');
  neighbourCounty = ids.team('Neighbouring County');
  const dana = ids.user('dispatcher@demo-county.test');
  const devon = ids.user('dispatcher2@demo-county.test');

  // Known history within the last seven days (and one session three weeks back), whatever the
  // seed's own demo history adds: the screen is compared with the API, not with constants.
  const lookupAt = hoursAgo(50);
  await insertSession(db, {
    teamId: demoCounty,
    userId: dana,
    createdAt: lookupAt,
    endedAt: after(lookupAt, 300),
    lookup: {
      requestedAt: lookupAt,
      answeredAt: after(lookupAt, 8),
      status: 'found',
      uncertaintyM: 30,
    },
  });
  const linkAt = hoursAgo(74);
  linkStartedAt = linkAt.getTime();
  danaId = dana;
  await insertSession(db, {
    teamId: demoCounty,
    userId: dana,
    createdAt: linkAt,
    endedAt: after(linkAt, 720),
    callers: [
      {
        language: 'es',
        textSentAt: after(linkAt, 10),
        textStatus: 'delivered',
        linkOpenedAt: after(linkAt, 40),
        promptShownAt: after(linkAt, 45),
        sharedAt: after(linkAt, 50),
        fixes: [
          [after(linkAt, 55), 120],
          [after(linkAt, 90), 15],
        ],
      },
    ],
    chat: {
      openedAt: after(linkAt, 60),
      messages: [
        { sender: 'dispatcher' },
        { sender: 'caller', translated: true },
        { sender: 'dispatcher', translated: true },
      ],
    },
  });
  const deniedAt = hoursAgo(72);
  await insertSession(db, {
    teamId: demoCounty,
    userId: devon,
    createdAt: deniedAt,
    endedAt: after(deniedAt, 180),
    callers: [
      {
        language: 'fr',
        textSentAt: after(deniedAt, 5),
        textStatus: 'delivered',
        linkOpenedAt: after(deniedAt, 30),
        promptShownAt: after(deniedAt, 32),
        deniedAt: after(deniedAt, 40),
      },
    ],
  });
  const earlier = hoursAgo(20 * 24);
  await insertSession(db, {
    teamId: demoCounty,
    userId: devon,
    createdAt: earlier,
    endedAt: after(earlier, 600),
    callers: [
      {
        language: 'en',
        textSentAt: after(earlier, 5),
        linkOpenedAt: after(earlier, 20),
        promptShownAt: after(earlier, 22),
        sharedAt: after(earlier, 25),
        fixes: [[after(earlier, 30), 8]],
      },
    ],
  });
  // More sessions in June 2021 than the Sessions table lists (500): one every ten minutes.
  for (let index = 0; index <= 500; index++) {
    const at = new Date(Date.UTC(2021, 5, 10, 15) + index * 600_000);
    await insertSession(db, { teamId: demoCounty, userId: devon, createdAt: at });
  }
  await insertSignIn(db, { userId: dana, teamId: demoCounty, at: hoursAgo(50, -60) });
  await insertSignIn(db, { userId: devon, teamId: demoCounty, at: hoursAgo(26) });
  await insertSignIn(db, { userId: dana, teamId: demoCounty, at: hoursAgo(25), failed: true });
});

afterAll(async () => {
  await env?.close();
});

const sidebar = (page: Page) => page.getByRole('navigation', { name: 'Admin sections' });
const card = (scope: Page | Locator, title: string) =>
  scope.getByRole('region', { name: title, exact: true });

/** GET a metrics path as `email`, and its status and body. */
async function apiGet(email: string, path: string): Promise<{ status: number; body: unknown }> {
  const { token } = await apiSignIn(env.api.url, email);
  const response = await fetch(url(path), { headers: { authorization: `Bearer ${token}` } });
  return { status: response.status, body: await response.json() };
}

/** The range a downloaded file covers, from its name (`…-2026-11-22-to-2026-11-28.csv`). */
function rangeOfFile(download: Download): { from: string; to: string } {
  const match = /(\d{4}-\d{2}-\d{2})-to-(\d{4}-\d{2}-\d{2})\.csv$/.exec(
    download.suggestedFilename(),
  );
  if (!match) throw new Error(`no range in ${download.suggestedFilename()}`);
  return { from: match[1]!, to: match[2]! };
}

async function downloadCsv(region: Locator): Promise<{ download: Download; csv: string }> {
  const [download] = await Promise.all([
    region.page().waitForEvent('download'),
    region.getByRole('button', { name: /^Download CSV/ }).click(),
  ]);
  return { download, csv: readFileSync((await download.path())!, 'utf8') };
}

/** Lines of a CSV as the screens write them (CRLF ends). */
const csvOf = (lines: string[]) => lines.map((line) => `${line}\r\n`).join('');

/** A CSV cell: quoted when it holds a comma or a quote. */
const csvCell = (value: string) =>
  /[",]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;

/** A Measure,Value CSV of a card of figures. */
const figuresCsv = (figures: [string, number][]) =>
  csvOf(['Measure,Value', ...figures.map(([label, value]) => `${label},${value}`)]);

interface HistoricalSearches {
  timeZone: string;
  truncated: boolean;
  searches: {
    startedAt: string;
    endedAt: string | null;
    dispatcherName: string | null;
    numbers: string[];
    located: boolean;
    source: 'lookup' | 'link' | null;
    timeToLocateMs: number | null;
  }[];
}

/** `2026-11-03 09:05`: an instant on the team's clock. */
function clock(iso: string, timeZone: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(new Date(iso))
      .map((part) => [part.type, part.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}`;
}

/** The Sessions CSV the screen should give for an answer of get-historical-searches. */
function sessionsCsv({ searches, timeZone }: HistoricalSearches): string {
  const sources = { lookup: 'Automatic lookup', link: 'Text link' };
  return csvOf([
    `Started (${timeZone}),Ended (${timeZone}),Dispatcher,Numbers,Located,Source,Time to locate (s)`,
    ...searches.map((search) =>
      [
        clock(search.startedAt, timeZone),
        search.endedAt === null ? '' : clock(search.endedAt, timeZone),
        search.dispatcherName ?? '',
        csvCell(search.numbers.join(', ')),
        search.located ? 'Yes' : 'No',
        search.source === null ? '' : sources[search.source],
        search.timeToLocateMs === null ? '' : String(Math.round(search.timeToLocateMs / 100) / 10),
      ].join(','),
    ),
  ]);
}

/** A weekday-by-hour CSV (the busiest hours) for an answer's 168 cells. */
function hoursCsv(cells: { weekday: number; hour: number; sessions: number }[]): string {
  const hours = Array.from({ length: 24 }, (_, hour) => hour);
  return csvOf([
    ['Weekday', ...hours.map((hour) => `${hour}:00`)].join(','),
    ...['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'].map((label, weekday) =>
      [
        label,
        ...hours.map(
          (hour) =>
            cells.find((cell) => cell.weekday === weekday && cell.hour === hour)?.sessions ?? 0,
        ),
      ].join(','),
    ),
  ]);
}

/** The value a tile of a card of figures shows under its label (its label, value, note). */
const tileValue = (region: Locator, label: string) =>
  region
    .getByTestId('chart')
    .locator('.mantine-Paper-root', { hasText: new RegExp(`^${label}`) })
    .locator('p')
    .nth(1)
    .textContent();

/** A bar drawn for a value (recharts draws no rectangle for a zero). */
const bar = '.recharts-bar-rectangle .recharts-rectangle';

/** The SVG shapes a chart drew for its data (bars, dots, heat-map cells). */
const drawn = (region: Locator, selector: string) =>
  region.getByTestId('chart').locator(selector).count();

describe('TEAM | USER METRICS', { timeout: 240_000 }, () => {
  it('shows Demo County’s team admin the charts of a range, and CSVs that are the API’s numbers', async () => {
    const { page, context } = await newPage(env.browser, { width: 1366, height: 900 });
    await signInWithForm(page, env.api.url, 'teamadmin@demo-county.test');
    await page.goto(url('/admin'));
    await sidebar(page).getByRole('link', { name: 'TEAM | USER METRICS' }).click();
    await page.waitForURL(url('/admin/metrics'));
    await page
      .getByRole('heading', { level: 1, name: 'Team and user metrics: Demo County 911' })
      .waitFor();
    const perDay = card(page, 'Locates per day');
    await perDay.getByTestId('chart').locator(bar).first().waitFor();
    await page.getByTestId('metrics-range').getByText('days in America/Chicago').waitFor();
    await expectAccessible(page, 'team metrics, last 30 days');

    // A preset: the last seven days.
    await page.getByRole('button', { name: 'Last 7 days' }).click();
    await page.waitForURL(url('/admin/metrics?range=last-7-days'));
    await expect
      .poll(() => page.getByRole('button', { name: 'Last 7 days' }).getAttribute('aria-pressed'))
      .toBe('true');
    // Seven days in the screen-reader table (and a header row), then bars for them.
    await expect.poll(() => perDay.getByRole('row').count(), { timeout: 10_000 }).toBe(8);
    expect(await drawn(perDay, bar)).toBeGreaterThan(0);
    for (const title of [
      'Locates per month',
      'How callers were located',
      'Callers by language',
      'Case durations',
      'Accuracy',
      'Link funnel',
      'Link funnel per day',
      'Sign-ins per day',
    ]) {
      const region = card(page, title);
      await region.getByTestId('chart').locator(bar).first().waitFor();
      expect(await drawn(region, bar), title).toBeGreaterThan(0);
    }
    const timeToLocate = card(page, 'Time to locate');
    await timeToLocate.getByTestId('chart').locator('.recharts-line-dot').first().waitFor();
    // 168 cells of the week, and the legend's squares.
    expect(await drawn(card(page, 'Busiest hours'), 'rect')).toBeGreaterThanOrEqual(168);
    await card(page, 'Link funnel by language')
      .getByRole('rowheader', { name: 'Spanish' })
      .waitFor();
    await card(page, 'Dispatchers').getByRole('button', { name: 'Dana Dispatcher' }).waitFor();
    await expectAccessible(page, 'team metrics, last 7 days');

    // The per-day CSV is the API's answer for the same range, row for row.
    const daily = await downloadCsv(perDay);
    const range = rangeOfFile(daily.download);
    expect(daily.download.suggestedFilename()).toBe(
      `locus-demo-county-911-locates-per-day-${range.from}-to-${range.to}.csv`,
    );
    const dailyAnswer = await apiGet(
      'teamadmin@demo-county.test',
      `/api/v1/location/get-daily-totals/${demoCounty}/${range.from}/${range.to}`,
    );
    expect(dailyAnswer.status).toBe(200);
    const days = (
      dailyAnswer.body as { days: { day: string; sessions: number; located: number }[] }
    ).days;
    expect(days).toHaveLength(7);
    expect(days.reduce((sum, day) => sum + day.sessions, 0)).toBeGreaterThanOrEqual(3);
    expect(daily.csv).toBe(
      ['Day,Sessions,Located', ...days.map((day) => `${day.day},${day.sessions},${day.located}`)]
        .map((line) => `${line}\r\n`)
        .join(''),
    );

    // And the languages: the names the screen gives them, the API's counts.
    const languages = await downloadCsv(card(page, 'Callers by language'));
    const languagesAnswer = await apiGet(
      'teamadmin@demo-county.test',
      `/api/v1/location/get-languages/${demoCounty}/${range.from}/${range.to}`,
    );
    const names: Record<string, string> = {
      en: 'English',
      es: 'Spanish',
      fr: 'French',
      zh: 'Mandarin',
    };
    expect(languages.csv).toBe(
      [
        'Language,Callers texted,Located',
        ...(
          languagesAnswer.body as {
            languages: { language: string; callers: number; located: number }[];
          }
        ).languages.map((entry) => `${names[entry.language]},${entry.callers},${entry.located}`),
      ]
        .map((line) => `${line}\r\n`)
        .join(''),
    );

    // The chat: the API's counts, on the tiles and in the CSV.
    const chatCard = card(page, 'Chat');
    const chatAnswer = await apiGet(
      'teamadmin@demo-county.test',
      `/api/v1/location/get-chat-totals/${demoCounty}/${range.from}/${range.to}`,
    );
    expect(chatAnswer.status).toBe(200);
    const chat = (
      chatAnswer.body as {
        chat: {
          sessionsWithChat: number;
          messages: number;
          fromCaller: number;
          fromDispatcher: number;
          translated: number;
        };
      }
    ).chat;
    expect(chat.sessionsWithChat).toBeGreaterThanOrEqual(1);
    expect(chat.messages).toBeGreaterThanOrEqual(3);
    expect(chat.fromCaller).toBeGreaterThanOrEqual(1);
    expect(chat.fromDispatcher).toBeGreaterThanOrEqual(2);
    expect(chat.translated).toBeGreaterThanOrEqual(2);
    const chatFigures: [string, number][] = [
      ['Sessions with chat', chat.sessionsWithChat],
      ['Messages', chat.messages],
      ['From callers', chat.fromCaller],
      ['From dispatchers', chat.fromDispatcher],
      ['Translated', chat.translated],
    ];
    for (const [label, value] of chatFigures)
      expect(await tileValue(chatCard, label), label).toBe(value.toLocaleString('en-US'));
    expect((await downloadCsv(chatCard)).csv).toBe(figuresCsv(chatFigures));

    // The sessions: a row per session of the API's answer, newest first, on the team's clock.
    const sessions = card(page, 'Sessions');
    const searchesAnswer = await apiGet(
      'teamadmin@demo-county.test',
      `/api/v1/location/get-historical-searches/${demoCounty}/${range.from}/${range.to}`,
    );
    expect(searchesAnswer.status).toBe(200);
    const searches = searchesAnswer.body as HistoricalSearches;
    expect(searches.timeZone).toBe('America/Chicago');
    expect(searches.truncated).toBe(false);
    expect(searches.searches.length).toBeGreaterThanOrEqual(3);
    await expect
      .poll(() => sessions.getByRole('row').count(), { timeout: 10_000 })
      .toBe(searches.searches.length + 1);
    expect(await sessions.getByRole('rowheader').allTextContents()).toEqual(
      searches.searches.map((search) => clock(search.startedAt, searches.timeZone)),
    );
    // Dana's texted caller: located by the link, 55 seconds after the start.
    const linkRow = searches.searches.findIndex(
      (search) => search.startedAt === new Date(linkStartedAt).toISOString(),
    );
    expect(linkRow).toBeGreaterThanOrEqual(0);
    expect(
      await sessions
        .getByRole('row')
        .nth(linkRow + 1)
        .getByRole('cell')
        .allTextContents(),
    ).toEqual([
      clock(new Date(linkStartedAt + 720_000).toISOString(), searches.timeZone),
      'Dana Dispatcher',
      searches.searches[linkRow]!.numbers.join(', '),
      'Yes',
      'Text link',
      '55',
    ]);
    expect(await sessions.getByTestId('metric-notice').count()).toBe(0);
    expect((await downloadCsv(sessions)).csv).toBe(sessionsCsv(searches));
    await expectAccessible(page, 'after the downloads');

    // The chart as a visible table.
    await perDay.getByRole('switch', { name: /Show as table/ }).check();
    await expect.poll(() => perDay.getByTestId('chart').count()).toBe(0);
    await perDay.getByRole('columnheader', { name: 'Located' }).waitFor();
    await expectAccessible(page, 'locates per day as a table');

    // One dispatcher's own panel.
    await card(page, 'Dispatchers').getByRole('button', { name: 'Dana Dispatcher' }).click();
    const panel = page.getByRole('dialog', { name: 'Dana Dispatcher: metrics' });
    await card(panel, 'Their locates per day').getByTestId('chart').locator(bar).first().waitFor();
    await card(panel, 'Their totals').getByRole('table').waitFor();
    const userPath = (call: string) =>
      `/api/v1/location/${call}/${danaId}/${range.from}/${range.to}`;
    // Their totals: get-user-total-usage.
    const usageAnswer = await apiGet(
      'teamadmin@demo-county.test',
      userPath('get-user-total-usage'),
    );
    expect(usageAnswer.status).toBe(200);
    const usage = (usageAnswer.body as { totals: Record<string, number> }).totals;
    expect(usage.sessions).toBeGreaterThanOrEqual(2);
    expect(usage.chats).toBeGreaterThanOrEqual(1);
    expect((await downloadCsv(card(panel, 'Their totals'))).csv).toBe(
      figuresCsv([
        ['Sessions', usage.sessions!],
        ['Numbers asked for', usage.numbers!],
        ['Located', usage.located!],
        ['Texts sent', usage.textsSent!],
        ['Transfers', usage.transfers!],
        ['Chats', usage.chats!],
      ]),
    );
    // Their languages: get-user-languages. Dana texted a caller in Spanish; the French caller
    // was Devon's, so Dana's French row (every language has one) is zeros.
    const theirLanguages = card(panel, 'Their callers by language');
    await theirLanguages.getByTestId('chart').locator(bar).first().waitFor();
    const userLanguagesAnswer = await apiGet(
      'teamadmin@demo-county.test',
      userPath('get-user-languages'),
    );
    expect(userLanguagesAnswer.status).toBe(200);
    const theirs = (
      userLanguagesAnswer.body as {
        languages: { language: string; callers: number; located: number }[];
      }
    ).languages;
    const spanish = theirs.find((entry) => entry.language === 'es');
    expect(spanish?.callers).toBeGreaterThanOrEqual(1);
    expect(theirs.find((entry) => entry.language === 'fr')).toEqual({
      language: 'fr',
      callers: 0,
      located: 0,
    });
    const languageCells = (name: string) =>
      theirLanguages.getByRole('row', { name: new RegExp(`^${name}`) }).getByRole('cell');
    expect(await languageCells('Spanish').allTextContents()).toEqual([
      String(spanish!.callers),
      String(spanish!.located),
    ]);
    expect(await languageCells('French').allTextContents()).toEqual(['0', '0']);
    expect((await downloadCsv(theirLanguages)).csv).toBe(
      csvOf([
        'Language,Callers texted,Located',
        ...theirs.map((entry) => `${names[entry.language]},${entry.callers},${entry.located}`),
      ]),
    );
    // Their busiest hours: the team's heat map over get-user-calendar-totals.
    const theirHours = card(panel, 'Their busiest hours');
    await theirHours.getByTestId('chart').locator('rect').first().waitFor();
    expect(await drawn(theirHours, 'rect')).toBeGreaterThanOrEqual(168);
    const calendarAnswer = await apiGet(
      'teamadmin@demo-county.test',
      userPath('get-user-calendar-totals'),
    );
    expect(calendarAnswer.status).toBe(200);
    const cells = (
      calendarAnswer.body as { cells: { weekday: number; hour: number; sessions: number }[] }
    ).cells;
    expect(cells).toHaveLength(168);
    expect(cells.reduce((sum, cell) => sum + cell.sessions, 0)).toBe(usage.sessions);
    expect((await downloadCsv(theirHours)).csv).toBe(hoursCsv(cells));
    await expectAccessible(page, 'a dispatcher’s panel');
    await panel.getByRole('button', { name: 'Close' }).click();
    await panel.waitFor({ state: 'hidden' });
    await context.close();
  });

  // The same screen's edges, in a test of their own (each journey has its own time limit).
  it('lists the newest 500 sessions of a busy month, shows empty states, prints and fits a phone', async () => {
    const { page, context } = await newPage(env.browser, { width: 1366, height: 900 });
    await signInWithForm(page, env.api.url, 'teamadmin@demo-county.test');
    const perDay = card(page, 'Locates per day');
    const sessions = card(page, 'Sessions');

    // A month with more sessions than the table lists: the newest 500, and the screen says so.
    await page.goto(url('/admin/metrics?from=2021-06-01&to=2021-06-30'));
    const cappedAnswer = await apiGet(
      'teamadmin@demo-county.test',
      `/api/v1/location/get-historical-searches/${demoCounty}/2021-06-01/2021-06-30`,
    );
    const capped = cappedAnswer.body as HistoricalSearches;
    expect(capped.truncated).toBe(true);
    expect(capped.searches).toHaveLength(500);
    await sessions.getByText('Showing the newest 500 sessions of the range.').waitFor();
    await expect
      .poll(() => sessions.getByRole('row').count(), { timeout: 20_000 })
      .toBe(capped.searches.length + 1);
    // The newest of the 501 first; the oldest is the one left out.
    const newest = new Date(Date.UTC(2021, 5, 10, 15) + 500 * 600_000).toISOString();
    const secondOldest = new Date(Date.UTC(2021, 5, 10, 15) + 600_000).toISOString();
    expect(await sessions.getByRole('rowheader').first().textContent()).toBe(
      clock(newest, capped.timeZone),
    );
    expect(await sessions.getByRole('rowheader').last().textContent()).toBe(
      clock(secondOldest, capped.timeZone),
    );
    // (axe has read the same table with three rows; over 3,500 cells it would take a minute.)
    expect((await downloadCsv(sessions)).csv).toBe(sessionsCsv(capped));

    // A custom range with no history: zeros and empty states, not errors.
    await page.getByLabel('From', { exact: true }).fill('2020-01-01');
    await page.getByLabel('To', { exact: true }).fill('2020-01-31');
    await page.waitForURL(url('/admin/metrics?from=2020-01-01&to=2020-01-31'));
    await perDay.getByText('No sessions in this range.').waitFor();
    await sessions.getByText('No sessions in this range.').waitFor();
    await card(page, 'Chat').getByText('No chats in this range.').waitFor();
    expect(await sessions.getByTestId('metric-notice').count()).toBe(0);
    await card(page, 'Link funnel').getByText('No texts in this range.').waitFor();
    expect(await page.getByRole('alert').count()).toBe(0);
    await expectAccessible(page, 'a range without history');

    // An end before the start is named, and the last good range stays on screen.
    await page.getByLabel('To', { exact: true }).fill('2019-12-01');
    await page.getByText('Must not be before the start').waitFor();
    expect(page.url()).toBe(url('/admin/metrics?from=2020-01-01&to=2020-01-31'));
    await expectAccessible(page, 'an end before the start');

    // Printed: no sidebar, buttons or range picker; the cards and their charts stay.
    await page.getByRole('button', { name: 'Last 7 days' }).click();
    await perDay.getByRole('columnheader', { name: 'Located' }).waitFor();
    // Each card loads on its own: the accuracy chart must be drawn before print is judged.
    await card(page, 'Accuracy').getByTestId('chart').locator(bar).first().waitFor();
    await page.emulateMedia({ media: 'print' });
    expect(await sidebar(page).isVisible()).toBe(false);
    expect(await page.getByRole('button', { name: 'Last 7 days' }).isVisible()).toBe(false);
    expect(await perDay.getByRole('button', { name: /^Download CSV/ }).isVisible()).toBe(false);
    expect(await card(page, 'Accuracy').getByTestId('chart').isVisible()).toBe(true);
    await page.emulateMedia({ media: 'screen' });

    // On a phone the cards stack and wide tables scroll sideways.
    await page.setViewportSize({ width: 390, height: 844 });
    await card(page, 'Accuracy').getByTestId('chart').locator(bar).first().waitFor();
    await expectAccessible(page, 'team metrics on a phone');
    await context.close();
  });

  it('is not offered to the neighbouring (basic) team’s admin, whom the API refuses', async () => {
    const { page, context } = await newPage(env.browser);
    await signInWithForm(page, env.api.url, 'teamadmin@neighbour-county.test');
    await page.goto(url('/admin'));
    await sidebar(page).getByRole('link', { name: 'USERS' }).waitFor();
    const items = await sidebar(page).getByRole('link').allTextContents();
    expect(items).not.toContain('TEAM | USER METRICS');
    expect(items).not.toContain('PLATFORM METRICS');
    await expectAccessible(page, 'the basic team admin’s admin area');

    await page.goto(url('/admin/metrics'));
    await page.waitForURL(url('/admin'));
    const refused = await apiGet(
      'teamadmin@neighbour-county.test',
      `/api/v1/location/get-ct-totals/${neighbourCounty}/2026-01-01/2026-01-31`,
    );
    expect(refused.status).toBe(403);
    const other = await apiGet(
      'teamadmin@neighbour-county.test',
      `/api/v1/location/get-daily-totals/${demoCounty}/2026-01-01/2026-01-31`,
    );
    expect(other.status).toBe(404);
    await context.close();
  });

  it('lets the platform owner see every team side by side, and pick a team', async () => {
    const { page, context } = await newPage(env.browser, { width: 1366, height: 900 });
    await signInWithForm(page, env.api.url, 'owner@locus.test');
    await page.goto(url('/admin'));
    await sidebar(page).getByRole('link', { name: 'PLATFORM METRICS' }).click();
    await page.waitForURL(url('/admin/platform-metrics'));
    await page.getByRole('heading', { level: 1, name: 'Platform metrics' }).waitFor();
    await page.getByRole('button', { name: 'Last 7 days' }).click();
    await page.waitForURL(url('/admin/platform-metrics?range=last-7-days'));
    const everyTeam = card(page, 'Every team');
    await everyTeam.getByRole('rowheader', { name: 'Demo County 911' }).waitFor();
    const side = card(page, 'Teams side by side');
    await side.getByTestId('chart').locator(bar).first().waitFor();
    await expectAccessible(page, 'platform metrics');

    const { download, csv } = await downloadCsv(everyTeam);
    const range = rangeOfFile(download);
    const answer = await apiGet(
      'owner@locus.test',
      `/api/v1/platform/metrics/${range.from}/${range.to}`,
    );
    expect(answer.status).toBe(200);
    const teams = (answer.body as { platform: { teams: { teamName: string; sessions: number }[] } })
      .platform.teams;
    const rows = csv.split('\r\n').slice(1, -1);
    // A row per team, in the API's order, each with the team's sessions.
    expect(rows.map((row) => row.split(',').slice(0, 2).join(','))).toEqual(
      teams.map((team) => `${team.teamName},${team.sessions}`),
    );
    const teamNames = teams.map((team) => team.teamName);
    expect(teamNames).toEqual(
      expect.arrayContaining(['Locus', 'Demo County 911', 'Neighbouring County']),
    );
    expect(await everyTeam.getByRole('row').count()).toBe(teams.length + 1);

    // TEAM | USER METRICS: a platform admin picks the team.
    await sidebar(page).getByRole('link', { name: 'TEAM | USER METRICS' }).click();
    await page.getByText('Pick a team to see its metrics.').waitFor();
    await expectAccessible(page, 'metrics, no team picked');
    await page.getByRole('combobox', { name: 'Team' }).click();
    await page.getByRole('option', { name: 'Demo County 911', exact: true }).click();
    await page.waitForURL(new RegExp(`/admin/metrics/${demoCounty}`));
    await page
      .getByRole('heading', { level: 1, name: 'Team and user metrics: Demo County 911' })
      .waitFor();
    await card(page, 'Locates per day').getByTestId('chart').locator(bar).first().waitFor();
    // The basic team is not offered.
    await page.getByRole('combobox', { name: 'Team' }).click();
    expect(await page.getByRole('option', { name: 'Neighbouring County' }).count()).toBe(0);
    await page.keyboard.press('Escape');
    await expectAccessible(page, 'a team picked by the platform owner');
    await context.close();
  });
});
