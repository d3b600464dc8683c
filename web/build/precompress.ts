import { readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

/**
 * Text files worth compressing. Images and fonts are compressed already; source maps are
 * skipped because only devtools fetch them and brotli at quality 11 takes seconds on each.
 */
const TEXT_FILE = /\.(?:m?js|css|html|svg|json|txt|webmanifest|xml)$/;

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)],
  );
}

/** Writes through a temporary name, so nobody reading dist meanwhile sees half a file. */
function writeWhole(path: string, data: Buffer): void {
  writeFileSync(`${path}.tmp`, data);
  renameSync(`${path}.tmp`, path);
}

/**
 * Writes `<file>.br` and `<file>.gz` next to every text file of the build (Vite's output and
 * the copied public files), compressed once at the highest levels, so the API
 * (@fastify/static's `preCompressed`) sends them without compressing per request. A variant
 * that would not be smaller than the file is not written: the file itself is then served.
 */
export function precompress(): Plugin {
  return {
    name: 'locus:precompress',
    apply: 'build',
    writeBundle: {
      // After every other plugin has written its files, public ones included.
      order: 'post',
      sequential: true,
      handler(output) {
        if (!output.dir) return;
        for (const file of filesUnder(output.dir).filter((path) => TEXT_FILE.test(path))) {
          const data = readFileSync(file);
          const br = brotliCompressSync(data, {
            params: {
              [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
              [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
              [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
            },
          });
          const gz = gzipSync(data, { level: 9 });
          if (br.length < data.length) writeWhole(`${file}.br`, br);
          if (gz.length < data.length) writeWhole(`${file}.gz`, gz);
        }
      },
    },
  };
}
