import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const dataRoot = join(repoRoot, '.data');
export const bin = (name: string): string => join(repoRoot, 'node_modules', '.bin', name);

/**
 * How to run a TypeScript entry point as a long-lived process: plain node with tsx's loader.
 * (The tsx CLI wrapper SIGKILLs a child that is slow to acknowledge a signal.)
 */
export const nodeTs = (file: string): [string, string[]] => [
  process.execPath,
  ['--import', 'tsx', file],
];
