import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'vite';

const webRoot = fileURLToPath(new URL('..', import.meta.url));

/**
 * Builds the caller's page (`share.html`, `src/caller/`) as a build of its own, into the same
 * dist, right after the console's. As a second input of one build, Rollup would share chunks
 * between the two pages (the caller texts, the languages), and the caller's page would need a
 * second script before it can paint; built alone, it is one HTML file and one script, and it
 * can never pull in the console's code.
 */
export function callerPage(): Plugin {
  return {
    name: 'locus-caller-page',
    apply: 'build',
    writeBundle: {
      sequential: true,
      async handler() {
        await build({
          configFile: false,
          root: webRoot,
          publicDir: false,
          logLevel: 'warn',
          build: {
            outDir: 'dist',
            emptyOutDir: false,
            sourcemap: true,
            modulePreload: { polyfill: false },
            rollupOptions: {
              input: { share: fileURLToPath(new URL('../share.html', import.meta.url)) },
            },
          },
        });
      },
    },
  };
}
