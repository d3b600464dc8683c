// `npm run bench -- --only overwatch`: the Overwatch screen (issue 14) in a real Chromium with
// 200 phones at 1 fix/s, its frame times and long tasks, against a plain-Leaflet reference page
// fed the same fixes.
//   --phones N     phones (default 200)
//   --seconds N    measured seconds (default 60), after --warmup N (default 15)
//   --url <base>   use an already running Locus (its SMS limits must allow N texts)
import { DEMO_PASSWORD } from '@locus/db';
import { OutboxSms, phoneStatusLabels, realtimePaths } from '@locus/contract';
import { mkdirSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { ensureChromium } from '../../../infra/src/system-packages';
import { runsDir } from '../paths';
import { existingProduct, type Product } from '../caller-page/product';
import { killOverwatchChildren, startOverwatchProduct } from './product';
import { attribute, type Attribution } from './attribution';
import { Fleet } from './fleet';
import { frameStats, measureScript, pageNow, samplesBetween } from './frames';
import { startReferenceRelay } from './reference';
import {
  checkTargets,
  summaryTable,
  writeOverwatchReport,
  type OverwatchReport,
  type PageRun,
} from './report';
import { onlyNames } from '../only';

/** True when `--only` names this bench (it cannot be combined with the realtime pipelines). */
export function isOverwatchRun(argv: string[]): boolean {
  return onlyNames(argv, 'overwatch');
}

const log = (message: string): void => console.log(`[overwatch] ${message}`);
const errorText = (error: unknown): string =>
  error instanceof Error ? error.message.split('\n')[0]! : String(error);
const sleep = (ms: number) => new Promise((wait) => setTimeout(wait, ms));

const teamAdmin = 'teamadmin@demo-county.test';
/** Numbers the lookup simulator has no record of (0100–0149 it finds): each one is texted. */
const phoneNumber = (index: number): string => `+1202555${String(4000 + index).padStart(4, '0')}`;
const viewport = { width: 1440, height: 900 };
const seed = 14;
const attributionMs = 10_000;
const chromiumFlags = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  '--no-first-run',
];

async function call<T>(
  baseUrl: string,
  method: string,
  path: string,
  token: string | null,
  body?: unknown,
): Promise<T> {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
  return JSON.parse(text) as T;
}

/** The newest link texted to each number, from the dev outbox, waiting up to 60 s for each. */
async function linkTokens(baseUrl: string, numbers: string[]): Promise<string[]> {
  const tokens: string[] = [];
  const deadline = Date.now() + 120_000;
  for (const number of numbers) {
    for (;;) {
      const texts = OutboxSms.array().parse(
        await call(baseUrl, 'GET', `/api/v1/dev/outbox/sms?to=${encodeURIComponent(number)}`, null),
      );
      const token = texts
        .map((text) => /\/share\?token=([A-Za-z0-9_-]{43})/.exec(text.body)?.[1])
        .find(Boolean);
      if (token) {
        tokens.push(token);
        break;
      }
      if (Date.now() > deadline) throw new Error(`no link was texted to ${number}`);
      await sleep(250);
    }
  }
  return tokens;
}

async function newContext(browser: Browser): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport, deviceScaleFactor: 1, locale: 'en-US' });
  await context.addInitScript({ content: measureScript });
  return context;
}

function emptyRun(page: PageRun['page']): PageRun {
  return {
    page,
    frames: null,
    window: null,
    phones: null,
    sharingRows: null,
    pageErrors: [],
    error: null,
  };
}

/** Warm-up, then the measured window: the page's own clock marks its start and end. */
async function measure(page: Page, fleet: Fleet, run: PageRun, warmUpMs: number, windowMs: number) {
  await sleep(warmUpMs);
  const from = await pageNow(page);
  fleet.mark();
  await sleep(windowMs);
  const to = await pageNow(page);
  run.window = fleet.sinceMark();
  run.frames = frameStats(await samplesBetween(page, from, to));
}

async function referenceRun(
  browser: Browser,
  phones: number,
  warmUpMs: number,
  windowMs: number,
): Promise<{ run: PageRun; attribution: Attribution | null }> {
  const run = emptyRun('reference');
  let attribution: Attribution | null = null;
  const relay = await startReferenceRelay();
  const context = await newContext(browser);
  let fleet: Fleet | null = null;
  try {
    const page = await context.newPage();
    page.on('pageerror', (error) => run.pageErrors.push(errorText(error)));
    await page.goto(relay.url);
    await page.waitForFunction(() => 'L' in globalThis);
    fleet = await Fleet.open(
      Array.from({ length: phones }, (_, i) => relay.phoneUrl(i)),
      {
        seed,
        ackOf: (frame) => ((frame as { event?: string }).event === 'ack' ? 'stored' : null),
      },
    );
    fleet.start();
    log(
      `reference: ${phones} phones sending; ${warmUpMs / 1000} s warm-up, ${windowMs / 1000} s measured`,
    );
    await measure(page, fleet, run, warmUpMs, windowMs);
    try {
      attribution = await attribute(await context.newCDPSession(page), attributionMs);
    } catch (error) {
      log(`reference attribution failed: ${errorText(error)}`);
    }
  } catch (error) {
    run.error = errorText(error);
  } finally {
    fleet?.close();
    if (fleet) run.phones = { ...fleet.counts };
    await context.close();
    await relay.stop();
  }
  return { run, attribution };
}

async function locusRun(
  browser: Browser,
  baseUrl: string,
  phones: number,
  warmUpMs: number,
  windowMs: number,
): Promise<{ run: PageRun; attribution: Attribution | null }> {
  const run = emptyRun('locus');
  let attribution: Attribution | null = null;
  const { token } = await call<{ token: string }>(baseUrl, 'POST', '/api/v1/auth/sign-in', null, {
    email: teamAdmin,
    password: DEMO_PASSWORD,
    staySignedIn: false,
  });
  const numbers = Array.from({ length: phones }, (_, i) => phoneNumber(i));
  const group = await call<{ id: string; name: string }>(
    baseUrl,
    'POST',
    '/api/v1/overwatch/groups',
    token,
    {
      name: `Bench walkers ${new Date().toISOString().slice(0, 19)}`,
      language: 'en',
      members: numbers.map((number, i) => ({
        phoneNumber: number,
        label: `Walker ${String(i + 1).padStart(3, '0')}`,
      })),
      geofences: [],
      staleAfterSeconds: 60,
      movement: 'walking',
      speedMps: 1.5,
      maxSpeedMps: 12,
    },
  );
  const context = await newContext(browser);
  let fleet: Fleet | null = null;
  let sessionUuid: string | null = null;
  try {
    const page = await context.newPage();
    page.on('pageerror', (error) => run.pageErrors.push(errorText(error)));
    await page.goto(`${baseUrl}/auth/sign-in`);
    await page.getByLabel('Email').fill(teamAdmin);
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.getByRole('button', { name: /user menu/i }).waitFor();
    await page.goto(`${baseUrl}/overwatch`);
    await page.getByRole('heading', { name: 'Overwatch', level: 1 }).waitFor();
    await page.getByRole('combobox', { name: 'Group' }).click();
    await page.getByRole('option', { name: new RegExp(group.name) }).click();
    const startedAt = Date.now();
    await page.getByRole('button', { name: 'Start watch' }).click();
    await page.getByRole('heading', { name: group.name, level: 1 }).waitFor();
    await page
      .getByRole('list', { name: 'Phones in this watch' })
      .getByRole('listitem')
      .nth(phones - 1)
      .waitFor({ timeout: 120_000 });
    log(
      `watch started, ${phones} phones listed in ${Date.now() - startedAt} ms; reading the links`,
    );
    const watch = await call<{ watch: { uuid: string } | null }>(
      baseUrl,
      'GET',
      '/api/v1/overwatch/active-watch',
      token,
    );
    sessionUuid = watch.watch?.uuid ?? null;
    const tokens = await linkTokens(baseUrl, numbers);
    const wsBase = baseUrl.replace(/^http/, 'ws');
    fleet = await Fleet.open(
      tokens.map((t) => `${wsBase}${realtimePaths.caller}?token=${t}`),
      {
        seed,
        ackOf: (frame) => {
          const f = frame as { event?: string; data?: { outcome?: string } };
          if (f.event !== 'ack') return null;
          return f.data?.outcome === 'stored' ? 'stored' : 'refused';
        },
      },
    );
    fleet.start();
    log(
      `Locus: ${phones} phones sending; ${warmUpMs / 1000} s warm-up, ${windowMs / 1000} s measured`,
    );
    await measure(page, fleet, run, warmUpMs, windowMs);
    const list = page.getByRole('list', { name: 'Phones in this watch' });
    const sharing = await list
      .getByRole('listitem')
      .filter({ hasText: /Sharing/ })
      .count();
    const rows = await list.getByRole('listitem').count();
    const listText =
      (await page
        .getByText(/^\d+ of \d+ phones$/)
        .first()
        .textContent()
        .catch(() => null)) ?? '';
    // What each row's badge says, right after the window (the rows are the page's own view).
    const statuses = await page.evaluate((labels) => {
      const counts: Record<string, number> = {};
      const { document } = globalThis as unknown as {
        document: { querySelectorAll(selector: string): ArrayLike<{ textContent: string | null }> };
      };
      const items = Array.from(
        document.querySelectorAll('ul[aria-label="Phones in this watch"] li'),
      );
      for (const li of items) {
        const text = li.textContent ?? '';
        const label = labels.find((l) => text.includes(l)) ?? 'other';
        counts[label] = (counts[label] ?? 0) + 1;
      }
      return counts;
    }, Object.values(phoneStatusLabels));
    run.sharingRows = {
      sharing,
      rows,
      listText: `${listText}; ${Object.entries(statuses)
        .map(([label, n]) => `${n} ${label}`)
        .join(', ')}`,
    };
    log(`Locus: p99 ${run.frames?.p99Ms} ms; attributing the main thread's time`);
    try {
      attribution = await attribute(await context.newCDPSession(page), attributionMs);
    } catch (error) {
      log(`attribution failed: ${errorText(error)}`);
    }
  } catch (error) {
    run.error = errorText(error);
  } finally {
    fleet?.close();
    if (fleet) run.phones = { ...fleet.counts };
    await context.close();
    if (sessionUuid)
      await call(
        baseUrl,
        'POST',
        `/api/v1/location/set-date-time-completed/${sessionUuid}`,
        token,
        {},
      ).catch((error: unknown) => log(`could not end the watch: ${errorText(error)}`));
  }
  return { run, attribution };
}

export async function runOverwatchBench(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      only: { type: 'string' },
      phones: { type: 'string', default: '200' },
      seconds: { type: 'string', default: '60' },
      warmup: { type: 'string', default: '15' },
      url: { type: 'string' },
    },
  });
  const phones = Number(values.phones);
  const seconds = Number(values.seconds);
  const warmUp = Number(values.warmup);
  if (![phones, seconds, warmUp].every((n) => Number.isInteger(n) && n > 0) || phones > 500) {
    console.error('--phones (1–500), --seconds and --warmup must be positive integers');
    return 2;
  }
  const startedAt = new Date().toISOString();
  const runId = `${startedAt.slice(0, 19).replace(/[-:T]/g, '')}-${process.pid}-overwatch`;
  const logDir = join(runsDir, runId);
  mkdirSync(logDir, { recursive: true });
  const [loadStart = 0] = loadavg();
  log(`run ${runId}; load average ${loadStart.toFixed(2)}`);
  if (loadStart > 0.5) log(`load average is ${loadStart.toFixed(2)}: other work skews frame times`);

  let product: Product | null = null;
  let browser: Browser | null = null;
  let cleaning: Promise<void> | null = null;
  const cleanUp = (): Promise<void> =>
    (cleaning ??= (async () => {
      await browser?.close().catch(() => {});
      await product?.stop();
    })());
  process.on('exit', killOverwatchChildren);
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    process.once(signal, () => void cleanUp().finally(() => process.exit(130)));
  try {
    // N texts at once need more than the default 120 per user per 10 minutes, and the map's
    // tiles must come from this server (no internet here).
    product = values.url
      ? existingProduct(values.url)
      : await startOverwatchProduct(logDir, {
          SMS_RATE_LIMIT_PER_USER: String(Math.max(1000, phones * 2)),
          SMS_RATE_LIMIT_PER_TEAM: String(Math.max(5000, phones * 10)),
          MAP_TILE_URL: '/map-tiles/blank.png',
        });
    log(`Locus ${product.description}`);
    browser = await chromium.launch({
      executablePath: ensureChromium(),
      headless: true,
      args: chromiumFlags,
    });
    const { run: reference, attribution: referenceAttribution } = await referenceRun(
      browser,
      phones,
      warmUp * 1000,
      seconds * 1000,
    );
    log(
      `reference: p50 ${reference.frames?.p50Ms} ms, p99 ${reference.frames?.p99Ms} ms` +
        (reference.error ? `; ERROR ${reference.error}` : ''),
    );
    const { run: locus, attribution } = await locusRun(
      browser,
      product.baseUrl,
      phones,
      warmUp * 1000,
      seconds * 1000,
    );
    if (locus.error) log(`Locus: ERROR ${locus.error}`);
    const [loadEnd = 0] = loadavg();
    const cpuList = cpus();
    const p99Ratio =
      locus.frames && reference.frames && reference.frames.p99Ms > 0
        ? Math.round((locus.frames.p99Ms / reference.frames.p99Ms) * 100) / 100
        : null;
    const partial: Omit<OverwatchReport, 'targets'> = {
      bench: 'overwatch',
      runId,
      startedAt,
      durationSeconds: Math.round((Date.now() - Date.parse(startedAt)) / 1000),
      machine: {
        cpus: cpuList.length,
        cpuModel: cpuList[0]?.model.trim() ?? 'unknown',
        node: process.version,
        chromium: `Chromium ${browser.version()}`,
        loadAverageStart: Math.round(loadStart * 100) / 100,
        loadAverageEnd: Math.round(loadEnd * 100) / 100,
      },
      product: { description: product.description, notes: product.notes },
      settings: {
        phones,
        fixesPerSecondPerPhone: 1,
        warmUpSeconds: warmUp,
        measuredSeconds: seconds,
        attributionSeconds: attributionMs / 1000,
        viewport: `${viewport.width} × ${viewport.height} CSS px at 1× device pixels, headless`,
        chromiumFlags,
      },
      reference,
      locus,
      p99Ratio,
      attribution: { locus: attribution, reference: referenceAttribution },
    };
    const report: OverwatchReport = { ...partial, targets: checkTargets(partial) };
    const written = writeOverwatchReport(report);
    console.log(`\n${summaryTable(report).join('\n')}\n`);
    console.log(
      report.targets
        .map((t) => `  ${t.status.toUpperCase().padEnd(7)} ${t.target}: ${t.value}`)
        .join('\n'),
    );
    log(`wrote ${written.join(', ')}`);
    return locus.error || reference.error ? 1 : 0;
  } catch (error) {
    console.error(`[overwatch] failed: ${error instanceof Error ? error.stack : String(error)}`);
    return 1;
  } finally {
    await cleanUp();
  }
}
