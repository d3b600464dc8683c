import { statusLevelOf, worstLevel, type StatusLevel, type Threshold } from '@locus/contract';

/**
 * A card's standing while its figures are judged: each figure beyond green adds its level and
 * one plain sentence (the screen shows the sentences under the card).
 */
export class Standing {
  private readonly levels: StatusLevel[] = [];
  readonly notes: string[] = [];

  /** Judges `value` against `threshold`; `sentence` explains it when it is not green. */
  check(value: number | null, threshold: Threshold, sentence: () => string): this {
    const level = statusLevelOf(value, threshold);
    if (level !== 'green') this.add(level, sentence());
    return this;
  }

  add(level: StatusLevel, sentence: string): this {
    this.levels.push(level);
    this.notes.push(sentence);
    return this;
  }

  result(): { level: StatusLevel; notes: string[] } {
    return { level: worstLevel(this.levels), notes: this.notes };
  }
}

export function formatMs(ms: number): string {
  if (ms < 1_000) return `${Math.round(ms)} ms`;
  if (ms < 120_000) return `${Math.round(ms / 100) / 10} s`;
  return `${Math.round(ms / 60_000)} min`;
}

export function formatBytes(bytes: number): string {
  const units = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${Math.round(value * 10) / 10} ${units[unit]}`;
}

export function formatPercent(ratio: number): string {
  return `${Math.round(ratio * 1000) / 10} %`;
}

export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

const TIMEOUT_MS = 2_000;

/** A status read never hangs on a backend that does not answer (ioredis retries forever). */
export function withTimeout<T>(promise: Promise<T>, ms = TIMEOUT_MS): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}
