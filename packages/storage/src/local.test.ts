import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { localStorage } from './index';

// The local adapter's streamed put, on a real directory.
const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});
const root = () => {
  const dir = mkdtempSync(join(tmpdir(), 'locus-storage-'));
  roots.push(dir);
  return dir;
};

describe('local storage, streamed', () => {
  it('stores a stream as one private file', async () => {
    const dir = root();
    const storage = localStorage(dir);
    const pieces = Array.from({ length: 20 }, (_, index) => Buffer.alloc(65_536, index));
    const whole = Buffer.concat(pieces);
    const key = 'team/session/media/001.webm';
    await storage.putStream(key, Readable.from(pieces), whole.length, 'video/webm');
    expect(statSync(join(dir, key)).mode & 0o777).toBe(0o600);
    expect((await storage.get(key))?.equals(whole)).toBe(true);
    expect(readdirSync(join(dir, 'team/session/media'))).toEqual(['001.webm']);
  });

  it('refuses a stream whose length is not the one announced, storing nothing', async () => {
    const dir = root();
    const storage = localStorage(dir);
    const pieces = [Buffer.alloc(1_000, 1), Buffer.alloc(1_000, 2)];
    await expect(
      storage.putStream('team/session/media/003.webm', Readable.from(pieces), 3_000, 'video/webm'),
    ).rejects.toThrow('the stream had 2000 bytes, not 3000');
    expect(readdirSync(join(dir, 'team/session/media'))).toEqual([]);
  });

  it('stores nothing, not even a partial file, when the stream fails halfway', async () => {
    const dir = root();
    const storage = localStorage(dir);
    async function* failing() {
      yield Buffer.alloc(65_536, 1);
      throw new Error('chunk 2 is missing');
    }
    await expect(
      storage.putStream(
        'team/session/media/002.webm',
        Readable.from(failing()),
        131_072,
        'video/webm',
      ),
    ).rejects.toThrow('chunk 2 is missing');
    expect(readdirSync(join(dir, 'team/session/media'))).toEqual([]);
  });
});
