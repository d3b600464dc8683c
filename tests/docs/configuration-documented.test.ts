import { ApiConfig } from '@locus/api';
import { WorkerConfig } from '@locus/worker';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const envExample = readFileSync(join(root, '.env.example'), 'utf8');
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const variables = [
  ...new Set([...Object.keys(ApiConfig.shape), ...Object.keys(WorkerConfig.shape)]),
];

describe('configuration', () => {
  it.each(variables)('%s is in .env.example and in the README table', (name) => {
    expect(envExample).toMatch(new RegExp(`^#? ?${name}=`, 'm'));
    expect(readme).toContain(`| \`${name}\``);
  });
});
