import { join } from 'node:path';
import { bin, repoRoot } from './paths';
import { run } from './processes';

/** The static checks that are part of `npm test`. */
export const checks = {
  lint: () => run(bin('eslint'), ['--max-warnings=0', '.']),
  format: () => run(bin('prettier'), ['--check', '.']),
  typecheck: async () => {
    const code = await run(bin('tsc'), ['-p', 'tsconfig.json']);
    return code !== 0 ? code : run(bin('tsc'), ['-p', join(repoRoot, 'web', 'tsconfig.json')]);
  },
};
