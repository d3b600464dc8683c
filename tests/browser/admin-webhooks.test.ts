import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyWebhook } from '@locus/client';
import type { CreatedApiKey } from '@locus/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, signIn } from '../auth/support';
import { expectAccessible, expectAccessibleOnceShown } from '../support/browser';
import {
  newPage,
  signInWithForm,
  startAuthEnvironment,
  type AuthEnvironment,
} from './auth-support';

// Issue 15, item 3 on the API page: a team admin adds a webhook endpoint and reads its secret
// once, sees each delivery's attempts (a receiver that fails, an endpoint turned off), turns it
// back on and resends; the receiver verifies what arrives with the secret the page showed.

let env: AuthEnvironment;
let server: Server;
const received: { headers: IncomingHttpHeaders; body: string }[] = [];
/** What the receiver answers: down at first. */
let answer = 500;

beforeAll(async () => {
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString() });
      response.writeHead(answer).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  env = await startAuthEnvironment(
    { WEBHOOK_ALLOW_HTTP: 'true' },
    {
      WEBHOOK_ALLOW_HTTP: 'true',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      WEBHOOK_DISPATCH_EVERY_MS: '200',
      WEBHOOK_RETRY_BASE_MS: '200',
      WEBHOOK_MAX_ATTEMPTS: '2',
    },
  );
});

afterAll(async () => {
  await env?.close();
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
});

const url = (path: string) => `${env.api.url}${path}`;
const receiverUrl = () => `http://127.0.0.1:${(server.address() as AddressInfo).port}/locus`;

describe('webhooks on the API page', () => {
  // A whole journey with 5 axe checks and the worker's retries: longer than the default.
  it('adds an endpoint, shows its secret once, logs failing attempts, and resends once the receiver is back', async () => {
    const { page, context } = await newPage(env.browser);
    await signInWithForm(page, env.api.url, 'teamadmin@demo-county.test');
    await page.goto(url('/admin/admin-api'));
    const team = page.getByRole('region', { name: 'Demo County 911' });
    const webhooks = team.getByRole('region', { name: 'Webhooks' });
    await webhooks.getByText('No webhook endpoints yet').waitFor();
    await expectAccessible(page, 'API page, no webhooks');

    // Add: the address is required, and said so.
    await webhooks.getByRole('button', { name: 'Add endpoint for Demo County 911' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add webhook endpoint' });
    await expectAccessibleOnceShown(page, dialog, 'add endpoint dialog');
    await dialog.getByRole('button', { name: 'Add endpoint' }).click();
    await dialog.getByText('Enter an https:// address').waitFor();
    await dialog.getByRole('textbox', { name: 'Address' }).fill(receiverUrl());
    await dialog.getByRole('checkbox', { name: 'session.ended' }).check();
    await dialog.getByRole('button', { name: 'Add endpoint' }).click();

    // The secret, once, with Done focused; Escape does not lose it.
    const shown = page.getByRole('dialog', { name: 'Your endpoint’s signing secret' });
    await shown.getByText('Copy this secret now').waitFor();
    await expectAccessible(page, 'signing secret shown once');
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Done');
    await page.keyboard.press('Escape');
    const secret = await shown.getByRole('textbox').inputValue();
    expect(secret).toMatch(/^whsec_/);
    await page.keyboard.press('Enter');
    await shown.waitFor({ state: 'detached' });
    const endpoint = webhooks.getByText(receiverUrl(), { exact: true });
    await endpoint.waitFor();
    expect(await page.content()).not.toContain(secret);

    // The team's partner system locates a number: its events go to the receiver, which is down.
    const session = await signIn(env.api, 'teamadmin@demo-county.test');
    const teamId = (
      await env.database.db
        .selectFrom('teams')
        .select('id')
        .where('team_name', '=', 'Demo County 911')
        .executeTakeFirstOrThrow()
    ).id;
    const key = await call<CreatedApiKey>(env.api, 'POST', `/api/v1/teams/${teamId}/api-keys`, {
      token: session,
      body: { name: 'CAD', scopes: ['locate:write'] },
    });
    const located = await call<{ id: string }>(env.api, 'POST', '/api/v1/partner/locates', {
      token: key.body.secret,
      body: { phoneNumber: '+12025550111' },
    });
    expect(located.status).toBe(201);

    // Both attempts fail: the delivery is failed, the endpoint turned off, and the page says why.
    await webhooks.getByRole('button', { name: `Deliveries to ${receiverUrl()}` }).click();
    const log = webhooks.getByRole('table', { name: `Deliveries to ${receiverUrl()}` });
    const started = log.getByRole('row').filter({ hasText: 'session.started' });
    await started.getByText('Failed').waitFor({ timeout: 15_000 });
    await started.getByText('500, 500').waitFor();
    await page.reload();
    await webhooks.getByText('Turned off', { exact: true }).waitFor();
    await webhooks.getByText(/Turned off after 2 failed attempts/).waitFor();
    await expectAccessible(page, 'endpoint turned off');

    // The receiver is back: turn the endpoint on, and send the failed delivery again.
    answer = 204;
    await webhooks.getByRole('button', { name: `Turn on ${receiverUrl()}` }).click();
    await webhooks.getByText('On', { exact: true }).waitFor();
    await webhooks.getByRole('button', { name: `Deliveries to ${receiverUrl()}` }).click();
    const again = log.getByRole('row').filter({ hasText: 'session.started' });
    await again.getByRole('button', { name: /^Resend session\.started/ }).click();
    await again.getByText('Delivered').waitFor({ timeout: 15_000 });
    await again.getByText('500, 500, 204').waitFor();
    await expectAccessible(page, 'deliveries, one resent');

    // What arrived last verifies with the secret the page showed.
    const last = received.filter((entry) => entry.body.includes('session.started')).at(-1)!;
    const payload = verifyWebhook<{ data: { sessionId: string } }>(
      secret,
      last.headers as Record<string, string>,
      last.body,
    );
    expect(payload.data.sessionId).toBe(located.body.id);

    // Delete asks first.
    await webhooks.getByRole('button', { name: `Delete ${receiverUrl()}` }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete webhook endpoint' });
    await confirm.getByRole('button', { name: 'Delete endpoint' }).click();
    await webhooks.getByText('No webhook endpoints yet').waitFor();
    await context.close();
  }, 120_000);
});
