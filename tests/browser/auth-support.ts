import { DEMO_PASSWORD, seedDemo } from '@locus/db';
import { parseWorkerConfig, startWorkers } from '@locus/worker';
import { Redis } from 'ioredis';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { pino } from 'pino';
import { startApi, testRedisPrefix, type TestApi } from '../support/api';
import { launchBrowser } from '../support/browser';
import { freshDatabase, type TestDatabase } from '../support/database';
import { testEnvironment } from '../support/environment';

export { DEMO_PASSWORD };

/**
 * What the account browser tests run against: a seeded database, an API serving the built web
 * app, the worker (so that e-mails reach the outbox) and Chromium.
 */
export interface AuthEnvironment {
  database: TestDatabase;
  api: TestApi;
  browser: Browser;
  /** The API's and the worker's Redis key prefix (BullMQ's is `bullPrefix` of it). */
  redisPrefix: string;
  /**
   * Stops the worker mid-test (its jobs finish, its heartbeat stops), as a crashed or stopped
   * worker process would; `close` then leaves it alone. Resolves once it has stopped.
   */
  stopWorker(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A private copy of the built web app. Several people and runs share web/dist, and a rebuild
 * empties it first: a copy taken while the build is complete keeps a run from seeing that.
 */
async function snapshotWebDist(): Promise<{ dir: string; remove(): void }> {
  const source = testEnvironment.webDist();
  // Both pages: the console's (index.html) and the caller's (share.html, built right after it,
  // with its service worker).
  const complete = (root: string) =>
    existsSync(join(root, 'share-sw.js')) &&
    ['index.html', 'share.html'].every((page) => {
      const path = join(root, page);
      if (!existsSync(path)) return false;
      const assets = [...readFileSync(path, 'utf8').matchAll(/(?:src|href)="\/(assets\/[^"]+)"/g)];
      return assets.length > 0 && assets.every(([, asset]) => existsSync(join(root, asset!)));
    });
  const dir = mkdtempSync(join(tmpdir(), 'locus-web-'));
  for (let attempt = 0; attempt < 600; attempt += 1) {
    if (complete(source)) {
      cpSync(source, dir, { recursive: true });
      if (complete(dir))
        return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no complete web build in ${source}`);
}

export async function startAuthEnvironment(
  env: Record<string, string> = {},
  workerEnv: Record<string, string> = {},
): Promise<AuthEnvironment> {
  const web = await snapshotWebDist();
  const database = await freshDatabase();
  await seedDemo(database.db, 'development');
  const redisPrefix = testRedisPrefix();
  const api = await startApi({
    databaseUrl: database.url,
    redisPrefix,
    // Every test signs in from 127.0.0.1: the per-address limits are the API tests' subject.
    // Map tiles from this server: browser tests never need the internet.
    env: {
      WEB_DIST_DIR: web.dir,
      AUTH_RATE_LIMIT_MAX: '10000',
      MAP_TILE_URL: '/map-tiles/blank.png',
      ...env,
    },
  });
  const connection = new Redis(testEnvironment.redisUrl(), { maxRetriesPerRequest: null });
  const workers = await startWorkers(
    parseWorkerConfig({
      DATABASE_URL: database.url,
      REDIS_URL: testEnvironment.redisUrl(),
      REDIS_KEY_PREFIX: redisPrefix,
      LOG_LEVEL: 'silent',
      ...workerEnv,
    }),
    { db: database.db, connection, log: pino({ level: 'silent' }) },
  );
  const browser = await launchBrowser();
  let workersStopped: Promise<void> | null = null;
  const stopWorker = () => (workersStopped ??= workers.close());
  return {
    database,
    api,
    browser,
    redisPrefix,
    stopWorker,
    close: async () => {
      await browser.close();
      await stopWorker();
      await connection.quit();
      await api.close();
      await database.drop();
      web.remove();
    },
  };
}

/** A page in its own context, so local storage (the session) is never shared between tests. */
export async function newPage(
  browser: Browser,
  options: { width?: number; height?: number } = {},
): Promise<{ page: Page; context: BrowserContext }> {
  const context = await browser.newContext({
    viewport: { width: options.width ?? 1280, height: options.height ?? 800 },
  });
  // Shorter than a test's own timeout, so a stuck step names itself.
  context.setDefaultTimeout(10_000);
  const page = await context.newPage();
  return { page, context };
}

/** Signs in through the /auth/sign-in page and waits for the dashboard. */
export async function signInWithForm(
  page: Page,
  baseUrl: string,
  email: string,
  password = DEMO_PASSWORD,
): Promise<void> {
  await page.goto(`${baseUrl}/auth/sign-in`);
  await page.getByLabel('Email').fill(email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.waitForURL(`${baseUrl}/dashboard`);
  await page.getByRole('button', { name: /user menu/i }).waitFor();
}

/** A bearer token straight from the API. */
export async function apiSignIn(baseUrl: string, email: string, password = DEMO_PASSWORD) {
  const response = await fetch(`${baseUrl}/api/v1/auth/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password, staySignedIn: true }),
  });
  if (response.status !== 200) throw new Error(`sign-in answered ${response.status}`);
  return (await response.json()) as { token: string; expiresAt: string };
}

interface OutboxEmail {
  to: string;
  subject: string;
  text: string;
  createdAt: string;
}

/** Waits until the dev outbox holds an e-mail to `to` whose text matches, and returns it. */
export async function waitForEmail(
  baseUrl: string,
  to: string,
  matching: RegExp,
  timeoutMs = 20_000,
): Promise<OutboxEmail> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const response = await fetch(`${baseUrl}/api/v1/dev/outbox/email?to=${encodeURIComponent(to)}`);
    if (response.status === 200) {
      const emails = (await response.json()) as OutboxEmail[];
      const found = emails.find((email) => matching.test(email.text));
      if (found) return found;
    }
    if (Date.now() > deadline) throw new Error(`no e-mail to ${to} matching ${matching}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The first link in an e-mail's text that goes to `path`. */
export function linkIn(email: OutboxEmail, path: string): URL {
  const escaped = path.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  const match = new RegExp(`https?://\\S+${escaped}\\?\\S+`).exec(email.text);
  if (!match) throw new Error(`no ${path} link in: ${email.text}`);
  return new URL(match[0]);
}

/** The app keeps the session in local storage (SPEC.md §3); tests read it to check logouts. */
export function storedToken(page: Page): Promise<string | null> {
  return page.evaluate(() => localStorage.getItem('locus.token'));
}
