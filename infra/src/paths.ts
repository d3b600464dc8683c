import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const dataRoot = join(repoRoot, '.data');
export const bin = (name: string): string => join(repoRoot, 'node_modules', '.bin', name);
