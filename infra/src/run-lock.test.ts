import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { claimRunLock } from './run-lock';

describe('the npm start run lock', () => {
  it('refuses a second start while the first is alive, naming its pid', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'locus-lock-'));
    const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)']);
    try {
      writeFileSync(join(dir, 'start.pid'), String(other.pid));
      expect(() => claimRunLock(dir)).toThrow(
        `already running from this folder (pid ${other.pid})`,
      );
    } finally {
      other.kill();
    }
  });

  it('takes over the lock of a start that was killed outright, and releases it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'locus-lock-'));
    const gone = spawn(process.execPath, ['-e', '']);
    await new Promise((exited) => gone.once('exit', exited));
    writeFileSync(join(dir, 'start.pid'), String(gone.pid));
    const lock = claimRunLock(dir);
    expect(existsSync(join(dir, 'start.pid'))).toBe(true);
    lock.release();
    expect(existsSync(join(dir, 'start.pid'))).toBe(false);
  });
});
