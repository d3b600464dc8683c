import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, testRedisPrefix, type TestApi } from '../support/api';
import { launchBrowser } from '../support/browser';
import { freshDatabase, type TestDatabase } from '../support/database';
import { testEnvironment } from '../support/environment';

let database: TestDatabase;
let api: TestApi;
let browser: Browser;

beforeAll(async () => {
  database = await freshDatabase();
  api = await startApi({
    databaseUrl: database.url,
    redisPrefix: testRedisPrefix(),
    env: { WEB_DIST_DIR: testEnvironment.webDist() },
  });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await api?.close();
  await database?.drop();
});

describe('the web app on the API origin', () => {
  it('shows that the platform is up', async () => {
    const page = await browser.newPage();
    await page.goto(api.url);
    await expect(page.getByRole('heading', { name: 'Locus' }).isVisible()).resolves.toBe(true);
    await page.getByRole('status').filter({ hasText: 'All systems operational' }).waitFor();
    await page.close();
  });

  it('serves the app for client-side routes on reload', async () => {
    const page = await browser.newPage();
    const response = await page.goto(`${api.url}/dashboard`);
    expect(response?.status()).toBe(200);
    await page.getByRole('heading', { name: 'Locus' }).waitFor();
    await page.close();
  });

  it('links to interactive API docs that list the contract', async () => {
    const page = await browser.newPage();
    await page.goto(api.url);
    await page.getByRole('link', { name: /API documentation/ }).click();
    await page.waitForURL(/\/api\/docs/);
    await page.getByText('/api/v1/health').first().waitFor();
    await page.close();
  });
});
