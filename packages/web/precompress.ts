import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

/** Text files worth compressing; images and fonts are compressed already. */
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|map)$/;
/** Below this a compressed copy saves less than its headers cost. */
const MIN_BYTES = 1024;

function* files(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* files(path);
    else yield path;
  }
}

/**
 * Writes a .br and a .gz beside every text file of the build, at the best compression: done once
 * here rather than on every request, and the server sends them as they are (http/portal-static.ts).
 */
export function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'precompress',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir.startsWith('/') ? config.build.outDir : join(config.root, config.build.outDir);
    },
    closeBundle() {
      for (const path of files(outDir)) {
        if (!COMPRESSIBLE.test(path)) continue;
        const content = readFileSync(path);
        if (content.length < MIN_BYTES) continue;
        writeFileSync(`${path}.br`, brotliCompressSync(content, {
          params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: content.length },
        }));
        writeFileSync(`${path}.gz`, gzipSync(content, { level: 9 }));
      }
    },
  };
}
