import { bullPrefix, jobs } from '@locus/contract';
import { Job, Queue, QueueEvents } from 'bullmq';
import { Redis } from 'ioredis';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, expectAccessibleOnceShown, settled } from '../support/browser';
import { testEnvironment } from '../support/environment';
import {
  apiSignIn,
  newPage,
  signInWithForm,
  startAuthEnvironment,
  waitForEmail,
  type AuthEnvironment,
} from './auth-support';

/**
 * Issue 22, "Must show": the platform owner opens /admin/dev, sees the status cards and a
 * sparkline drawn, retries and discards failed jobs, and sees the worker's card turn red by
 * itself once the worker stops; a team admin has no DEV item, is sent away with an explanation,
 * and gets 403 from the API.
 */
let env: AuthEnvironment;
let connection: Redis;
let queue: Queue;
let events: QueueEvents;

beforeAll(async () => {
  env = await startAuthEnvironment();
  connection = new Redis(testEnvironment.redisUrl(), { maxRetriesPerRequest: null });
  const prefix = bullPrefix(env.redisPrefix);
  queue = new Queue(jobs.emailSweep.queue, { connection, prefix });
  events = new QueueEvents(jobs.emailSweep.queue, { connection, prefix });
  await events.waitUntilReady();
});

afterAll(async () => {
  await events?.close();
  await queue?.close();
  await connection?.quit();
  await env?.close();
});

const url = (path: string) => `${env.api.url}${path}`;

/**
 * A job that fails at once, cheaply: the worker validates every payload again, and the sweep's
 * is an empty object (strict), so an extra key fails before anything runs.
 */
async function failedSweep(): Promise<Job> {
  const job = await queue.add(
    jobs.emailSweep.name,
    { broken: true },
    { ...jobs.emailSweep.options, attempts: 1 },
  );
  await expect(job.waitUntilFinished(events, 30_000)).rejects.toThrow();
  return job;
}

const card = (page: Page, name: string | RegExp) =>
  page.getByRole('region', { name, exact: typeof name === 'string' });

/** The level a card shows in words (its badge): "OK", "Amber" or "Red". */
const levelOf = (region: Locator) => region.locator('[data-level]').first().textContent();

/** Points in the path of a sparkline (M and L commands). */
async function sparklinePoints(page: Page, name: RegExp): Promise<number> {
  const path = page.getByRole('img', { name }).locator('path');
  if ((await path.count()) === 0) return 0;
  return ((await path.getAttribute('d')) ?? '').match(/[ML]/g)?.length ?? 0;
}

describe('the operations console', { timeout: 240_000 }, () => {
  it('is not for a team admin: no DEV item, sent away with an explanation, 403 from the API', async () => {
    const { page, context } = await newPage(env.browser);
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await signInWithForm(page, env.api.url, 'teamadmin@demo-county.test');
    await page.goto(url('/admin'));
    const sidebar = page.getByRole('navigation', { name: 'Admin sections' });
    await sidebar.getByRole('link', { name: 'USERS' }).waitFor();
    const items = (await sidebar.getByRole('link').allTextContents()).map((text) => text.trim());
    expect(items).not.toContain('DEV');

    // Typed in the address bar: a full page load, sent to /admin with the reason.
    await page.goto(url('/admin/dev'));
    await page.waitForURL(url('/admin'));
    const notice = page
      .getByRole('alert')
      .filter({ hasText: "That page is for the platform owner's staff only" });
    await notice.waitFor();
    await page.getByRole('heading', { level: 1, name: 'Users' }).waitFor();
    await expectAccessible(page, 'team admin sent away from /admin/dev');

    const { token } = await apiSignIn(env.api.url, 'teamadmin@demo-county.test');
    const status = await fetch(url('/api/v1/platform/status'), {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(status.status).toBe(403);
    expect(((await status.json()) as { error: string }).error).toBe('forbidden');
    await context.close();
  });

  it('shows the platform owner the status live, lets them retry and discard failed jobs, and turns the worker red when it stops', async () => {
    const retried = await failedSweep();
    const discarded = await failedSweep();
    const vanishing = await failedSweep();

    const { page, context } = await newPage(env.browser);
    await page.emulateMedia({ reducedMotion: 'reduce', colorScheme: 'light' });
    await signInWithForm(page, env.api.url, 'owner@locus.test');
    await page.goto(url('/admin'));
    await page
      .getByRole('navigation', { name: 'Admin sections' })
      .getByRole('link', { name: 'DEV' })
      .click();
    await page.waitForURL(url('/admin/dev'));
    await page.getByRole('heading', { level: 1, name: 'Dev' }).waitFor();

    // The cards, each with its level in words.
    const workers = card(page, 'Workers');
    await workers.getByText('1 worker', { exact: true }).waitFor();
    expect(['OK', 'Amber']).toContain(await levelOf(workers));
    const worker = card(page, /^Worker /);
    await worker.getByText('Alive', { exact: true }).waitFor();
    // Alive; amber is possible on a loaded test machine (its event-loop lag), red is not.
    expect(['OK', 'Amber']).toContain(await levelOf(worker));
    await card(page, /^API instance /).waitFor();
    for (const name of [
      'Postgres',
      'Redis',
      'Queues',
      'Realtime',
      'Texts and e-mails',
      'Location provider',
    ]) {
      await card(page, name).waitFor();
    }
    expect(['OK', 'Amber', 'Red']).toContain(await levelOf(card(page, 'Redis')));
    await page.getByTestId('overall-status').waitFor();
    // The test stack is a demo deployment: texts and e-mails stay in the dev outbox.
    await page.getByText('Demo mode: the dev outbox is on').waitFor();
    expect(await page.getByRole('link', { name: 'Queue board' }).getAttribute('href')).toBe(
      '/admin/queues',
    );
    await page.getByRole('region', { name: 'Demo requests' }).waitFor();
    await expectAccessible(page, '/admin/dev, light');

    // A sparkline drawn from the samples (one every 10 s), with its latest value in words.
    await expect
      .poll(() => sparklinePoints(page, /^Queue depth over the last hour, latest \d+ jobs?$/), {
        timeout: 45_000,
        interval: 1_000,
      })
      .toBeGreaterThanOrEqual(2);
    await page
      .getByRole('region', { name: 'The last hour' })
      .screenshot({ path: '/tmp/locus-admin-dev-sparklines.png' });

    // Failed jobs: Retry runs one again (its payload mended meanwhile, so that it completes).
    const table = page.getByRole('table', { name: 'Failed jobs' });
    const row = (job: Job) => table.getByRole('row').filter({ hasText: `#${job.id}` });
    for (const job of [retried, discarded, vanishing]) await row(job).waitFor();
    await expectAccessible(page, 'failed jobs listed');
    await retried.updateData({});
    await row(retried)
      .getByRole('button', { name: `Retry ${jobs.emailSweep.name} #${retried.id}` })
      .click();
    await page.getByRole('alert').filter({ hasText: 'will run again' }).waitFor();
    await expect
      .poll(async () => (await Job.fromId(queue, retried.id!))?.getState(), { timeout: 20_000 })
      .toBe('completed');
    await row(retried).waitFor({ state: 'detached', timeout: 20_000 });

    // Discard asks first.
    await row(discarded)
      .getByRole('button', { name: /^Discard / })
      .click();
    const dialog = page.getByRole('dialog', { name: 'Discard this job?' });
    await expectAccessibleOnceShown(page, dialog, 'discard confirmation');
    await dialog.getByRole('button', { name: 'Discard job' }).click();
    await dialog.waitFor({ state: 'detached' });
    await row(discarded).waitFor({ state: 'detached' });
    expect(await Job.fromId(queue, discarded.id!)).toBeUndefined();

    // A job removed elsewhere meanwhile: 409, said in a notice, and the table catches up.
    await vanishing.remove();
    await row(vanishing)
      .getByRole('button', { name: /^Retry / })
      .click();
    const refused = page.getByRole('alert').filter({ hasText: 'Not retried' });
    await refused.waitFor();
    await row(vanishing).waitFor({ state: 'detached' });
    await settled(page);
    await expectAccessible(page, 'a retry refused (409)');

    // Demo mode: the newest texts and e-mails that did not leave, on the screen (a password
    // reset asked for a dispatcher is written to the outbox by the worker).
    await fetch(`${env.api.url}/api/v1/auth/forgot-password`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'dispatcher2@demo-county.test' }),
    });
    const reset = await waitForEmail(env.api.url, 'dispatcher2@demo-county.test', /./);
    await page
      .getByRole('button', { name: 'The dev outbox: texts and e-mails that did not leave' })
      .click();
    const outbox = page.getByRole('region', {
      name: 'The dev outbox: texts and e-mails that did not leave',
    });
    await outbox.getByRole('cell', { name: reset.subject }).first().waitFor();
    await settled(page);
    await expectAccessible(page, 'dev outbox open');

    // The configuration, collapsed until asked for, secrets redacted.
    await page.getByRole('button', { name: 'Configuration of this API instance' }).click();
    const config = page.getByRole('region', { name: 'Configuration of this API instance' });
    await config.getByText('redacted', { exact: true }).first().waitFor();
    // Redacted means the value never reaches the page: not the database URL, nor its password.
    const shown = (await config.textContent()) ?? '';
    const { password } = new URL(env.database.url);
    expect(shown).not.toContain(env.database.url);
    if (password) expect(shown).not.toContain(`:${password}@`);
    await settled(page);
    await expectAccessible(page, 'configuration open');

    // Dark, then a phone's width: the cards stack in one column, nothing scrolls sideways.
    await page.emulateMedia({ reducedMotion: 'reduce', colorScheme: 'dark' });
    await expect
      .poll(() =>
        page.evaluate(() => document.documentElement.getAttribute('data-mantine-color-scheme')),
      )
      .toBe('dark');
    await expectAccessible(page, '/admin/dev, dark');
    await page.setViewportSize({ width: 320, height: 800 });
    await expect
      .poll(() => page.evaluate(() => document.documentElement.scrollWidth))
      .toBeLessThanOrEqual(320);
    const [first, second] = await Promise.all([
      card(page, 'Workers').boundingBox(),
      card(page, 'Postgres').boundingBox(),
    ]);
    expect(second!.x).toBe(first!.x);
    expect(second!.y).toBeGreaterThan(first!.y);
    await expectAccessible(page, '/admin/dev at 320 px, dark');
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: '/tmp/locus-admin-dev-320-dark.png' });
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.emulateMedia({ reducedMotion: 'reduce', colorScheme: 'light' });

    // The worker stops: its card turns red by itself (no reload), within 30 seconds.
    const stoppedAt = Date.now();
    await env.stopWorker();
    await workers.locator('[data-level="red"]').first().waitFor({ timeout: 30_000 });
    await worker.getByText('Red', { exact: true }).waitFor({ timeout: 30_000 });
    expect(Date.now() - stoppedAt).toBeLessThan(30_000);
    expect(await levelOf(workers)).toBe('Red');
    await expectAccessible(page, 'the worker stopped');
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: '/tmp/locus-admin-dev-worker-stopped.png' });
    await context.close();
  });
});
