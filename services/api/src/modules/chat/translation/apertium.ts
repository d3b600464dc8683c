import { spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SmsLanguage as SmsLanguageCode } from '@locus/contract/caller';
import type { TranslationResult, Translator } from './translator';

/** Debian's packages that hold the pairs Locus uses (English–Spanish, French–Spanish). */
export const apertiumPackages = ['apertium', 'apertium-eng-spa', 'apertium-fr-es'] as const;

/** Apertium's mode for each direct pair Locus needs. */
const directModes: Partial<Record<`${SmsLanguageCode}-${SmsLanguageCode}`, string>> = {
  'en-es': 'eng-spa',
  'es-en': 'spa-eng',
  'fr-es': 'fr-es',
  'es-fr': 'es-fr',
};

/** Languages Apertium has no direct pair for go through Spanish, the hub of both installed pairs. */
const pivot: SmsLanguageCode = 'es';

export interface ApertiumOptions {
  /** The `apertium` binary; found on PATH by default. */
  binary?: string;
  /** One translation (each step of a pivot) is given up after this long. */
  timeoutMs?: number;
  /** At most this many Apertium pipelines run at once; the others wait their turn. */
  maxConcurrent?: number;
  /** Installed modes; detected with `apertium -l` when not given. */
  modes?: readonly string[];
}

/**
 * The modes this machine has (`apertium -l` lists every installed mode), or null when the binary
 * is missing. Asked once at start, so `covers()` answers honestly without a process per call.
 */
export function detectApertiumModes(binary = 'apertium'): string[] | null {
  const result = spawnSync(binary, ['-l'], { encoding: 'utf8', timeout: 10_000 });
  if (result.error || result.status !== 0) return null;
  return result.stdout
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
}

/** A counting semaphore whose waiters can give up (abort) without taking a slot. */
class Slots {
  private running = 0;
  private readonly waiting: Array<() => void> = [];
  constructor(private readonly size: number) {}

  async take(signal: AbortSignal): Promise<() => void> {
    if (this.running >= this.size) {
      await new Promise<void>((resolve, reject) => {
        const wake = () => {
          signal.removeEventListener('abort', onAbort);
          resolve();
        };
        const onAbort = () => {
          this.waiting.splice(this.waiting.indexOf(wake), 1);
          reject(new Error('aborted'));
        };
        if (signal.aborted) return reject(new Error('aborted'));
        this.waiting.push(wake);
        signal.addEventListener('abort', onAbort, { once: true });
      });
    } else {
      this.running += 1;
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      // The slot passes straight to the next waiter, so `running` stays the same.
      if (next) next();
      else this.running -= 1;
    };
  }
}

/**
 * Apertium, the offline default (issue 12): rule-based, runs on this machine, no account, no
 * network. Each translation is one `apertium -u <mode> <file>` process, the text in a private
 * file (never on a command line, never through a shell: callers' text is untrusted), in its own
 * process group so that an abort or a timeout ends the whole pipeline Apertium starts. A file
 * rather than stdin because Apertium opens `/dev/stdin`, which fails on the socket Node gives a
 * child as its stdin.
 */
export class ApertiumTranslator implements Translator {
  readonly name = 'apertium';
  private readonly binary: string;
  private readonly timeoutMs: number;
  private readonly modes: ReadonlySet<string>;
  private readonly slots: Slots;
  private scratch: string | undefined;

  constructor(options: ApertiumOptions = {}) {
    this.binary = options.binary ?? 'apertium';
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.slots = new Slots(options.maxConcurrent ?? 4);
    this.modes = new Set(options.modes ?? detectApertiumModes(this.binary) ?? []);
  }

  /** False when the binary or every pair is missing: translation is then `not-translated`. */
  get installed(): boolean {
    return Object.values(directModes).some((mode) => this.modes.has(mode));
  }

  /** The modes to run, in order, for `from` → `to`; null when this machine cannot. */
  route(from: SmsLanguageCode, to: SmsLanguageCode): string[] | null {
    if (from === to) return null;
    const direct = directModes[`${from}-${to}`];
    if (direct) return this.modes.has(direct) ? [direct] : null;
    const first = directModes[`${from}-${pivot}`];
    const second = directModes[`${pivot}-${to}`];
    if (!first || !second || !this.modes.has(first) || !this.modes.has(second)) return null;
    return [first, second];
  }

  covers(from: SmsLanguageCode, to: SmsLanguageCode): boolean {
    return this.route(from, to) !== null;
  }

  async translate(
    text: string,
    from: SmsLanguageCode,
    to: SmsLanguageCode,
    signal: AbortSignal,
  ): Promise<TranslationResult> {
    const route = this.route(from, to);
    if (!route)
      return { status: 'not-translated', reason: `Apertium does not cover ${from} → ${to} here.` };
    let current = text;
    try {
      for (const mode of route) current = await this.run(mode, current, signal);
    } catch (error) {
      return { status: 'not-translated', reason: `Apertium: ${(error as Error).message}` };
    }
    return { status: 'translated', text: current, engine: this.name };
  }

  private async run(mode: string, text: string, outer: AbortSignal): Promise<string> {
    const signal = AbortSignal.any([outer, AbortSignal.timeout(this.timeoutMs)]);
    const release = await this.slots.take(signal);
    // Readable by this user only (mkdtemp makes the directory 0700).
    this.scratch ??= mkdtempSync(join(tmpdir(), 'locus-apertium-'));
    const input = join(this.scratch, `${randomUUID()}.txt`);
    try {
      await writeFile(input, text.endsWith('\n') ? text : `${text}\n`, { mode: 0o600 });
      return await new Promise<string>((resolve, reject) => {
        const child = spawn(this.binary, ['-u', mode, input], {
          stdio: ['ignore', 'pipe', 'pipe'],
          detached: true,
        });
        const stdout: Buffer[] = [];
        let stderr = '';
        const kill = () => {
          try {
            if (child.pid) process.kill(-child.pid, 'SIGKILL');
          } catch {
            // Already gone.
          }
        };
        const onAbort = () => {
          kill();
          reject(new Error(outer.aborted ? 'aborted' : 'timed out'));
        };
        if (signal.aborted) return onAbort();
        signal.addEventListener('abort', onAbort, { once: true });
        child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
        child.stderr.on('data', (chunk: Buffer) => {
          if (stderr.length < 500) stderr += chunk.toString('utf8');
        });
        child.on('error', (error) => {
          signal.removeEventListener('abort', onAbort);
          reject(error);
        });
        child.on('close', (code) => {
          signal.removeEventListener('abort', onAbort);
          if (code === 0) resolve(Buffer.concat(stdout).toString('utf8').trim());
          else reject(new Error(`exit ${code}: ${stderr.trim().slice(0, 200)}`));
        });
      });
    } finally {
      release();
      await rm(input, { force: true });
    }
  }
}
