import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { build, type Plugin, type Rollup } from 'vite';

const webRoot = fileURLToPath(new URL('..', import.meta.url));

/** The caller page's service worker, at a URL that never changes (the API serves it `no-cache`). */
const SHARE_SERVICE_WORKER = 'share-sw.js';
const serviceWorkerEntry = fileURLToPath(
  new URL('../src/caller/service-worker/share-sw.ts', import.meta.url),
);

/**
 * Builds the caller's page (`share.html`, `src/caller/`) as a build of its own, into the same
 * dist, right after the console's. As a second input of one build, Rollup would share chunks
 * between the two pages (the caller texts, the languages), and the caller's page would need a
 * second script before it can paint; built alone, it is one HTML file and one script, and it
 * can never pull in the console's code. Its service worker comes with it (see
 * `shareServiceWorker`).
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
          plugins: [shareServiceWorker()],
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

/**
 * Adds `/share-sw.js` to the caller page's bundle, so that it is written together with
 * `share.html`: the worker, bundled on its own as one classic script, with the list of the
 * page's files (every file of this bundle but source maps, nothing of the console) and a hash
 * of their contents as the build's version baked in.
 */
function shareServiceWorker(): Plugin {
  return {
    name: 'locus-share-service-worker',
    apply: 'build',
    enforce: 'post',
    generateBundle: {
      // After Vite's HTML plugin has put share.html, with its script's hashed name, in the bundle.
      order: 'post',
      async handler(_options, bundle) {
        const files = Object.values(bundle)
          .filter((file) => !file.fileName.endsWith('.map'))
          .sort((a, b) => a.fileName.localeCompare(b.fileName));
        const html = files.find((file) => file.fileName === 'share.html');
        if (html?.type !== 'asset') throw new Error('share.html is not in the caller bundle');
        const hash = createHash('sha256');
        for (const file of files) {
          hash.update(`${file.fileName}\0`);
          hash.update(file.type === 'chunk' ? file.code : file.source);
          hash.update('\0');
        }
        const entryScripts = files
          .filter((file) => file.type === 'chunk' && file.isEntry)
          .map((file) => `/${file.fileName}`);
        const source = await bundleServiceWorker({
          __SHARE_SW_VERSION__: hash.digest('base64url').slice(0, 16),
          __SHARE_SW_PRECACHE__: files.map((file) => `/${file.fileName}`),
          __SHARE_SW_ENTRY_SCRIPTS__: entryScripts,
        });
        this.emitFile({ type: 'asset', fileName: SHARE_SERVICE_WORKER, source });
      },
    },
  };
}

/** The worker as one classic script (every browser that has service workers runs those). */
async function bundleServiceWorker(constants: Record<string, unknown>): Promise<string> {
  const result = await build({
    configFile: false,
    root: webRoot,
    publicDir: false,
    logLevel: 'warn',
    define: Object.fromEntries(
      Object.entries(constants).map(([name, value]) => [name, JSON.stringify(value)]),
    ),
    build: {
      write: false,
      sourcemap: false,
      modulePreload: false,
      rollupOptions: {
        input: serviceWorkerEntry,
        output: { format: 'iife', entryFileNames: SHARE_SERVICE_WORKER },
      },
    },
  });
  const outputs = (Array.isArray(result) ? result : [result]) as Rollup.RollupOutput[];
  const chunks = outputs.flatMap((output) => output.output).filter((file) => file.type === 'chunk');
  if (chunks.length !== 1) throw new Error(`the service worker built to ${chunks.length} chunks`);
  return chunks[0]!.code;
}
