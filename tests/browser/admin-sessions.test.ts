import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { verifyEvidence } from '@locus/client/evidence';
import { callerTexts } from '@locus/contract';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, expectAccessibleOnceShown } from '../support/browser';
import {
  newPage,
  signInWithForm,
  startAuthEnvironment,
  type AuthEnvironment,
} from './auth-support';
import { trackingHelpers } from './tracking-support';

// Issue 15, evidence: a caller taps Share on the real page (French), and the team admin finds
// on /admin/sessions exactly what that caller saw and agreed to, the export's state and its
// signed evidence file, and puts the session under legal hold and releases it.

let env: AuthEnvironment;
let exportDir: string;
let keyDir: string;

beforeAll(async () => {
  exportDir = mkdtempSync(join(tmpdir(), 'locus-browser-exports-'));
  keyDir = mkdtempSync(join(tmpdir(), 'locus-browser-key-'));
  env = await startAuthEnvironment(
    {},
    { EXPORT_DIR: exportDir, EVIDENCE_SIGNING_KEY_FILE: join(keyDir, 'signing.pem') },
  );
});

afterAll(async () => {
  await env?.close();
  rmSync(exportDir, { recursive: true, force: true });
  rmSync(keyDir, { recursive: true, force: true });
});

const { textedSession, callerPhone, endActiveSessions } = trackingHelpers(() => env);

afterEach(() => endActiveSessions());

const url = (path: string) => `${env.api.url}${path}`;

describe('the sessions page', () => {
  it('shows what the caller agreed to, the signed export, and a legal hold', async () => {
    const number = '+12025550187';
    const t = callerTexts.fr.page;
    const session = await textedSession(number, 'fr');
    const caller = await callerPhone({ latitude: 48.8566, longitude: 2.3522 });
    const callerAgent = await caller.page.evaluate(() => navigator.userAgent);
    await caller.page.goto(session.link);
    await caller.page.getByRole('button', { name: t.shareButton }).click();
    await session.dispatcher.event('new-location-available');
    await session.end();
    await caller.page.getByText(t.endedTitle).waitFor();
    await caller.context.close();
    await session.dispatcher.close();

    const { page, context } = await newPage(env.browser);
    await signInWithForm(page, env.api.url, 'teamadmin@demo-county.test');
    await page.goto(url('/admin'));
    await page
      .getByRole('navigation', { name: 'Admin sections' })
      .getByRole('link', { name: 'SESSIONS', exact: true })
      .click();
    await page.waitForURL(url('/admin/sessions'));
    const table = page.getByRole('table', { name: 'Past and current sessions' });
    const row = table.getByRole('row').filter({ hasText: number });
    await row.waitFor();
    await expectAccessible(page, 'sessions list');
    await row.getByRole('link').click();
    await page.waitForURL(url(`/admin/sessions/*/${session.sessionId}`));

    // The consent receipt: the French request, word for word, and the phone's browser.
    const consent = page.getByRole('region', { name: 'What the caller agreed to' });
    const receipt = consent.getByRole('article', { name: `Consent of ${number}` });
    await receipt.getByText(`tapped “${t.shareButton}”`, { exact: false }).waitFor();
    await receipt.getByText(t.requestFrom('Demo County 911')).waitFor();
    await receipt.getByText(t.requestConsent).waitFor();
    await receipt.getByText(callerAgent, { exact: false }).waitFor();
    expect(await receipt.locator('[lang="fr"]').count()).toBe(1);

    // The export: the page follows it until it is stored, then names the file and the chain.
    const exported = page.getByRole('region', { name: 'Export and evidence file' });
    await exported.getByText('Exported', { exact: true }).waitFor({ timeout: 30_000 });
    const evidenceKey = await exported.getByText(/\.evidence\.json$/).innerText();
    expect(evidenceKey.startsWith(exportDir)).toBe(true);
    const file = JSON.parse(readFileSync(evidenceKey, 'utf8')) as unknown;
    const verified = verifyEvidence(file, {
      trustedPublicKey: readFileSync(join(keyDir, 'signing.pub.pem'), 'utf8'),
    });
    expect(verified.ok).toBe(true);
    if (verified.ok) await exported.getByText(verified.head).waitFor();
    // The deployment's public key, offered for download, is the one the file verifies with.
    const keyLink = exported.getByRole('link', { name: /^Download public key / });
    const [download] = await Promise.all([page.waitForEvent('download'), keyLink.click()]);
    const downloaded = readFileSync(await download.path(), 'utf8');
    expect(verifyEvidence(file, { trustedPublicKey: downloaded }).ok).toBe(true);
    await expectAccessible(page, 'session evidence');

    // A legal hold, with its reason; the list says so too; then released after a confirmation.
    const hold = page.getByRole('region', { name: 'Legal hold' });
    await hold.getByRole('textbox', { name: 'Reason for the hold' }).fill('Case 2026-0142');
    await hold.getByRole('button', { name: 'Put on legal hold' }).click();
    await hold.getByText('Case 2026-0142').waitFor();
    await hold.getByText(/On hold since/).waitFor();
    await expectAccessible(page, 'session on hold');
    await page.getByRole('link', { name: '← All sessions' }).click();
    await row.getByText('Legal hold').waitFor();
    await row.getByRole('link').click();
    await hold.getByRole('button', { name: 'Release hold' }).click();
    const confirm = page.getByRole('dialog', { name: 'Release the legal hold?' });
    await expectAccessibleOnceShown(page, confirm, 'release hold dialog');
    await confirm.getByRole('button', { name: 'Release hold' }).click();
    await confirm.waitFor({ state: 'detached' });
    await hold.getByRole('button', { name: 'Put on legal hold' }).waitFor();
    await context.close();
  }, 120_000);
});
