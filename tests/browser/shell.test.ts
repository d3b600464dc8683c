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
  it('serves the public site at /', async () => {
    const page = await browser.newPage();
    const response = await page.goto(api.url);
    expect(response?.status()).toBe(200);
    await page.getByRole('heading', { level: 1, name: /Find the caller/ }).waitFor();
    await page.close();
  });

  it('serves the app for client-side routes on reload', async () => {
    const page = await browser.newPage();
    const response = await page.goto(`${api.url}/about`);
    expect(response?.status()).toBe(200);
    await page.getByRole('heading', { level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/about');
    await page.close();
  });

  it('links to interactive API docs that list the contract', async () => {
    const page = await browser.newPage();
    await page.goto(api.url);
    await page.getByRole('link', { name: /API documentation/ }).click();
    await page.waitForURL(/\/api\/docs/);
    await page.getByText('/api/v1/auth/sign-in').first().waitFor();
    await page.close();
  });
});
