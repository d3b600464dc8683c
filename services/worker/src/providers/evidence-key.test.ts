import { createPublicKey, type KeyObject } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { keyFromFile, publicKeyFile } from './evidence-key';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('keyFromFile', () => {
  it('gives every worker starting at once the same whole key, and leaves no drafts', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'locus-evidence-key-'));
    dirs.push(dir);
    const config = {
      EVIDENCE_SIGNING_KEY_FILE: join(dir, 'keys', 'evidence.pem'),
      NODE_ENV: 'development' as const,
    };

    // Before the key was linked into place whole, a second worker could read the file the
    // first had just created and not yet written ("Failed to read private key").
    // Test workers share the default key file, so on a fresh clone several start without it at
    // once. In CI one of them read the key file another had created and not yet written
    // ("Failed to read private key"); that window is too short to hit here on purpose, so this
    // checks what every start must end with: one key, whole, and no drafts left behind.
    const starting: Promise<KeyObject>[] = [];
    for (let i = 0; i < 40; i += 1) {
      starting.push(keyFromFile(config));
      await new Promise((resolve) => setImmediate(resolve));
    }
    const keys = await Promise.all(starting);

    const publicHalves = new Set(
      keys.map((key) => createPublicKey(key).export({ type: 'spki', format: 'pem' }).toString()),
    );
    expect(publicHalves.size).toBe(1);
    expect(readdirSync(join(dir, 'keys')).sort()).toEqual(['evidence.pem', 'evidence.pub.pem']);
    expect(publicKeyFile(config.EVIDENCE_SIGNING_KEY_FILE)).toBe(
      join(dir, 'keys', 'evidence.pub.pem'),
    );
  });

  it('does not create a key in production', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'locus-evidence-key-'));
    dirs.push(dir);
    const config = {
      EVIDENCE_SIGNING_KEY_FILE: join(dir, 'evidence.pem'),
      NODE_ENV: 'production' as const,
    };
    await expect(keyFromFile(config)).rejects.toMatchObject({ code: 'ENOENT' });
    expect(readdirSync(dir)).toEqual([]);
  });
});
