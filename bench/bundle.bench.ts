import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'vite';
import type { BenchTable } from './run';

/**
 * Bytes a page downloads for its in-memory Redis, gzip level 9: Lockstep's simulated server
 * (commands, keyspace, connections and the Lua engine with fengari) against ioredis-mock 8.13.1's
 * browser build, both bundled and minified by the same Vite build, plus the mock's browser.js as
 * shipped. Not speed: the table's unit is bytes.
 */

const root = fileURLToPath(new URL('..', import.meta.url));

/** Bundles one entry of bench/bundle-entries/ for the browser, minified, and gzips the code. */
async function bundledGzipBytes(entry: string): Promise<number> {
  const output = await build({
    root,
    configFile: false,
    logLevel: 'silent',
    build: { write: false, minify: true, lib: { entry: fileURLToPath(new URL(`./bundle-entries/${entry}`, import.meta.url)), formats: ['es'], fileName: 'bench' } },
  });
  const outputs = (Array.isArray(output) ? output : [output]) as { output: { type: string; code?: string }[] }[];
  const code = outputs.flatMap((o) => o.output).filter((chunk) => chunk.type === 'chunk').map((chunk) => chunk.code ?? '').join('\n');
  return gzipSync(code, { level: 9 }).length;
}

export async function run(): Promise<BenchTable> {
  const require = createRequire(import.meta.url);
  const shipped = readFileSync(require.resolve('ioredis-mock/browser.js'));
  return {
    title: 'Bundle bytes of the in-memory Redis (gzip -9)',
    unit: 'bytes',
    rows: [
      { name: "Lockstep's server + Lua engine (SimRedisServer, fengari)", opsPerSec: await bundledGzipBytes('lockstep-server.ts') },
      { name: 'ioredis-mock 8.13.1 browser build, bundled', opsPerSec: await bundledGzipBytes('ioredis-mock.ts') },
      { name: 'ioredis-mock 8.13.1 browser.js as shipped', opsPerSec: gzipSync(shipped, { level: 9 }).length },
    ],
    baseline: "Lockstep's server + Lua engine (SimRedisServer, fengari)",
  };
}
