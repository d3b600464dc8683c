// `npm run bench -- --only caller-page`: the caller's page in a real, throttled Chromium, from a
// real caller link, against the floor a one-button page sets under the same conditions.
//   --runs N        runs per profile (default 5)
//   --profiles a,b  fast, slow-4g, 3g (default all three)
//   --url <base>    use an already running Locus instead of starting one
import { callerTexts } from '@locus/contract';
import { mkdirSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium, type Browser } from 'playwright-core';
import { ensureChromium } from '../../../infra/src/system-packages';
import { runsDir } from '../paths';
import {
  createCallerLink,
  DispatcherSocket,
  endSession,
  noRecordNumber,
  signIn,
  type CallerLink,
} from './dispatcher';
import {
  loadAndSettle,
  loadUntilConsent,
  phoneContext,
  tapAndWaitForFix,
  throttledPage,
} from './page-load';
import { existingProduct, killProductChildren, startProduct, type Product } from './product';
import { profiles, type Profile } from './profiles';
import { startReferenceServer } from './reference-page';
import {
  checkTargets,
  summarise,
  summaryTable,
  writeCallerPageReport,
  type CallerPageReport,
  type Landing,
  type Run,
} from './report';
import { onlyNames } from '../only';

/** True when `--only` names this bench (it cannot be combined with the realtime pipelines). */
export function isCallerPageRun(argv: string[]): boolean {
  return onlyNames(argv, 'caller-page');
}

/** The English consent button's text, from the one catalogue of caller-facing text. */
const shareText = callerTexts.en.page.shareButton;

/** Chromium's flags for this sandboxed, offline machine, as the browser tests use them. */
function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: ensureChromium(),
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-quic',
      '--no-first-run',
    ],
  });
}

const errorText = (error: unknown): string =>
  error instanceof Error ? error.message.split('\n')[0]! : String(error);

async function oneRun(options: {
  browser: Browser;
  baseUrl: string;
  referenceUrl: string;
  authToken: string;
  profile: Profile;
  run: number;
  phoneNumber: string;
}): Promise<Run> {
  const { browser, baseUrl, profile } = options;
  const result: Run = {
    profile: profile.name,
    run: options.run,
    phoneNumber: options.phoneNumber,
    locus: null,
    reference: null,
    tap: null,
    error: null,
  };
  // The floor first, in its own fresh context.
  const referenceContext = await phoneContext(browser, new URL(options.referenceUrl).origin);
  try {
    const page = await throttledPage(referenceContext, profile, shareText);
    result.reference = await loadUntilConsent(
      page,
      options.referenceUrl,
      shareText,
      profile.consentTimeoutMs,
    );
  } catch (error) {
    result.error = `reference page: ${errorText(error)}`;
  } finally {
    await referenceContext.close();
  }

  let link: CallerLink | null = null;
  let dispatcher: DispatcherSocket | null = null;
  const context = await phoneContext(browser, baseUrl);
  try {
    link = await createCallerLink(baseUrl, options.authToken, options.phoneNumber);
    dispatcher = await DispatcherSocket.open(baseUrl, link.session);
    const page = await throttledPage(context, profile, shareText);
    result.locus = await loadUntilConsent(page, link.url, shareText, profile.consentTimeoutMs);
    const fix = dispatcher.firstFix(link.session.id, 30_000);
    fix.catch(() => {}); // awaited below; a click that throws must not leave it unhandled
    result.tap = await tapAndWaitForFix(page, shareText, fix);
  } catch (error) {
    result.error = [result.error, `caller page: ${errorText(error)}`].filter(Boolean).join('; ');
  } finally {
    await context.close();
    dispatcher?.close();
    if (link) {
      await endSession(baseUrl, options.authToken, link.session.uuid).catch((error: unknown) =>
        console.warn(
          `[caller-page] could not end session ${link?.session.uuid}: ${errorText(error)}`,
        ),
      );
    }
  }
  return result;
}

async function landing(browser: Browser, baseUrl: string): Promise<Landing | { error: string }> {
  const fast = profiles.find((p) => p.name === 'fast')!;
  const context = await phoneContext(browser, baseUrl);
  try {
    const page = await throttledPage(context, fast, shareText);
    const loaded = await loadAndSettle(page, `${baseUrl}/`);
    const js = loaded.resources.filter((r) => r.type === 'Script' || /javascript/.test(r.mimeType));
    return {
      jsBytes: loaded.jsBytes,
      bytes: loaded.bytes,
      requests: loaded.resources.length,
      jsEncodings: [...new Set(js.map((r) => r.encoding || 'none'))],
      resources: loaded.resources,
    };
  } catch (error) {
    return { error: errorText(error) };
  } finally {
    await context.close();
  }
}

export async function runCallerPage(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      only: { type: 'string' },
      runs: { type: 'string', default: '5' },
      profiles: { type: 'string', default: profiles.map((p) => p.name).join(',') },
      url: { type: 'string' },
    },
  });
  const runsPerProfile = Number(values.runs);
  if (!Number.isInteger(runsPerProfile) || runsPerProfile < 1) {
    console.error(`--runs must be a positive integer, not "${values.runs}"`);
    return 2;
  }
  const wanted = (values.profiles ?? '').split(',').map((name) => name.trim());
  const chosen = profiles.filter((p) => wanted.includes(p.name));
  if (chosen.length !== wanted.length) {
    console.error(`--profiles: choose from ${profiles.map((p) => p.name).join(', ')}`);
    return 2;
  }

  const startedAt = new Date().toISOString();
  const runId = `${startedAt.slice(0, 19).replace(/[-:T]/g, '')}-${process.pid}-caller-page`;
  const logDir = join(runsDir, runId);
  mkdirSync(logDir, { recursive: true });
  const [load = 0] = loadavg();
  console.log(`[caller-page] run ${runId}; load average ${load.toFixed(2)}`);
  if (load > 0.5)
    console.warn(`[caller-page] load average is ${load.toFixed(2)}: other work skews the times`);

  let product: Product | null = null;
  let browser: Browser | null = null;
  let stopReference: (() => Promise<void>) | null = null;
  let cleaning: Promise<void> | null = null;
  /** Stops, by process id, what this run started: Chromium, the reference server, Locus. */
  const cleanUp = (): Promise<void> =>
    (cleaning ??= (async () => {
      await browser?.close().catch(() => {});
      await stopReference?.();
      await product?.stop();
    })());
  process.on('exit', killProductChildren);
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    process.once(signal, () => void cleanUp().finally(() => process.exit(130)));
  try {
    product = values.url ? existingProduct(values.url) : await startProduct(logDir);
    console.log(`[caller-page] Locus ${product.description}`);
    const reference = await startReferenceServer(shareText);
    stopReference = reference.stop;
    browser = await launch();
    const authToken = await signIn(product.baseUrl);

    let numberIndex = 0;
    // Unrecorded: the first page a fresh Chromium opens, and the first link the API serves,
    // pay for cold starts that are no part of what a caller waits for.
    const warmUp = await oneRun({
      browser,
      baseUrl: product.baseUrl,
      referenceUrl: reference.url,
      authToken,
      profile: profiles[0]!,
      run: 0,
      phoneNumber: noRecordNumber(numberIndex++),
    });
    console.log(`[caller-page] warm-up run done${warmUp.error ? ` (${warmUp.error})` : ''}`);

    const runs: Run[] = [];
    for (const profile of chosen) {
      for (let run = 1; run <= runsPerProfile; run += 1) {
        const result = await oneRun({
          browser,
          baseUrl: product.baseUrl,
          referenceUrl: reference.url,
          authToken,
          profile,
          run,
          phoneNumber: noRecordNumber(numberIndex++),
        });
        runs.push(result);
        console.log(
          `[caller-page] ${profile.name} #${run}: consent ${result.locus?.consentMs ?? '–'} ms ` +
            `(reference ${result.reference?.consentMs ?? '–'} ms), ${result.locus?.bytes ?? '–'} B ` +
            `(${result.locus?.jsBytes ?? '–'} B JS), first position → fix ${result.tap?.firstPositionToFixMs ?? '–'} ms` +
            (result.error ? `; ERROR ${result.error}` : ''),
        );
        // A page that never shows its button would time out every run: two in a row is enough.
        const previous = runs.at(-2);
        if (run >= 2 && !result.locus && previous?.profile === profile.name && !previous.locus) {
          console.warn(
            `[caller-page] ${profile.name}: two runs without a consent button; next profile`,
          );
          break;
        }
      }
    }
    const landed = await landing(browser, product.baseUrl);
    const summaries = chosen.map((profile) => summarise(profile, runs));
    const cpuList = cpus();
    const report: CallerPageReport = {
      bench: 'caller-page',
      runId,
      startedAt,
      durationSeconds: Math.round((Date.now() - Date.parse(startedAt)) / 1000),
      machine: {
        cpus: cpuList.length,
        cpuModel: cpuList[0]?.model.trim() ?? 'unknown',
        node: process.version,
        chromium: `Chromium ${browser.version()}`,
        loadAverage: Math.round(load * 100) / 100,
      },
      product: { description: product.description, notes: product.notes },
      settings: {
        runsPerProfile,
        viewport: '360 × 740 CSS px at 2× device pixels, touch, Android Chrome user agent',
        cpuSlowdown: 4,
        profiles: chosen,
      },
      summaries,
      landing: landed,
      targets: checkTargets(summaries, landed),
      runs,
    };
    const written = writeCallerPageReport(report);
    console.log(`\n${summaryTable(report).join('\n')}\n`);
    console.log(
      report.targets
        .map((t) => `  ${t.status.toUpperCase().padEnd(7)} ${t.target}: ${t.value}`)
        .join('\n'),
    );
    console.log(`\n[caller-page] wrote ${written.join(', ')}`);
    return runs.some((r) => r.error) || 'error' in landed ? 1 : 0;
  } catch (error) {
    console.error(`[caller-page] failed: ${error instanceof Error ? error.stack : String(error)}`);
    return 1;
  } finally {
    await cleanUp();
  }
}
