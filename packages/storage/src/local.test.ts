import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { localStorage } from './index';

// The local adapter's streamed put and read, on a real directory.
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
  it('stores a stream as one private file, and reads it back piece by piece', async () => {
    const dir = root();
    const storage = localStorage(dir);
    const pieces = Array.from({ length: 20 }, (_, index) => Buffer.alloc(65_536, index));
    await storage.putStream('team/session/media/001.webm', Readable.from(pieces), 0, 'video/webm');
    const path = join(dir, 'team/session/media/001.webm');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const read: Buffer[] = [];
    const stream = await storage.getStream('team/session/media/001.webm');
    for await (const piece of stream! as AsyncIterable<Buffer>) read.push(piece);
    expect(Buffer.concat(read).equals(Buffer.concat(pieces))).toBe(true);
    expect(await storage.getStream('team/session/media/none.webm')).toBeNull();
  });

  it('stores nothing, not even a partial file, when the stream fails halfway', async () => {
    const dir = root();
    const storage = localStorage(dir);
    async function* failing() {
      yield Buffer.alloc(65_536, 1);
      throw new Error('chunk 2 is missing');
    }
    await expect(
      storage.putStream('team/session/media/002.webm', Readable.from(failing()), 0, 'video/webm'),
    ).rejects.toThrow('chunk 2 is missing');
    expect(readdirSync(join(dir, 'team/session/media'))).toEqual([]);
  });
});
