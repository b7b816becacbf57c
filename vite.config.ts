import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';

/**
 * fengari reads `process.env.FENGARICONF` when it loads (src/luaconf.js). The production build
 * replaces `process.env` for the browser; the dev server's dependency pre-bundler does not, and the
 * page then fails with "process is not defined" (tests/e2e/dev-server.spec.ts). So the pre-bundler
 * gets fengari without that read. Fails loudly if the code it patches is not there, so an upgrade
 * cannot silently break the dev server.
 */
function fengariDevPatch(): Plugin {
  const read = '(process.env.FENGARICONF ? JSON.parse(process.env.FENGARICONF) : {})';
  return {
    name: 'lockstep:fengari-dev-patch',
    transform(code, id) {
      if (!/fengari[\\/]src[\\/]luaconf\.js(\?.*)?$/.test(id)) return null;
      if (!code.includes(read)) throw new Error('fengari dev patch: luaconf.js changed; re-check the patch for this version');
      return { code: code.replace(read, '({})'), map: null };
    },
  };
}

/**
 * fengari's lualib and linit load every Lua library at module init, with the Node-only modules some pull in
 * (io, os and package read files and run processes; debug.debug reads a terminal). Redis's Lua has
 * none of io, os, utf8 or package, and Lockstep opens only base, table, string, math, coroutine and
 * debug (src/engine/redis/lua). So the page and the worker get stubs that throw if ever called:
 * about 15 kB of gzip less before the page is ready. Build only: Node (Vitest, the CLI) keeps fengari whole.
 */
function fengariBrowserTrim(): Plugin {
  const stubs: Readonly<Record<string, { importer: RegExp; code: string }>> = {
    './liolib.js': { importer: /fengari[\\/]src[\\/](lualib|linit)\.js$/, code: 'luaopen_io' },
    './loslib.js': { importer: /fengari[\\/]src[\\/](lualib|linit)\.js$/, code: 'luaopen_os' },
    './lutf8lib.js': { importer: /fengari[\\/]src[\\/](lualib|linit)\.js$/, code: 'luaopen_utf8' },
    './loadlib.js': { importer: /fengari[\\/]src[\\/](lualib|linit)\.js$/, code: 'luaopen_package' },
    'readline-sync': { importer: /fengari[\\/]src[\\/]ldblib\.js$/, code: 'question' },
  };
  const prefix = '\0lockstep-fengari-stub:';
  return {
    name: 'lockstep:fengari-browser-trim',
    apply: 'build',
    enforce: 'pre',
    resolveId(source, importer) {
      const stub = stubs[source];
      return stub && importer && stub.importer.test(importer) ? `${prefix}${stub.code}` : null;
    },
    load(id) {
      if (!id.startsWith(prefix)) return null;
      const name = id.slice(prefix.length);
      return `module.exports = { ${name}() { throw new Error('${name}: not part of the Lua that Lockstep runs'); } };`;
    },
  };
}

/**
 * The page loads the Lua engine (fengari and Lockstep's Lua libraries, about 85 kB of gzip) on
 * demand: most first screens never evaluate a script. `src/engine/redis/lua-default.ts` installs
 * it wherever the engine is imported (Node, the CLI, the tests); the page gets
 * `lua-default.page.ts` instead, which installs nothing, and its store imports
 * `lua/install.ts` before it creates a run that needs scripts (src/ui/store/page-library.ts).
 * The engine worker, a chunk of this same build, gets the swap too and imports `lua/install.ts`
 * itself (it always evaluates scripts; src/ui/worker/engine.worker.ts).
 */
function pageLoadsLuaOnDemand(): Plugin {
  const target = /[\\/]src[\\/]engine[\\/]redis[\\/]lua-default\.ts$/;
  return {
    name: 'lockstep:page-loads-lua-on-demand',
    enforce: 'pre',
    async resolveId(source, importer, options) {
      if (!source.includes('lua-default')) return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      if (!resolved || !target.test(resolved.id)) return resolved;
      return resolved.id.replace(/lua-default\.ts$/, 'lua-default.page.ts');
    },
  };
}

/**
 * The engine ships once. Vite builds `new Worker(new URL(...))` as a bundle of its own, so the
 * worker carried a second copy of the engine, the scenarios and fengari beside the page's. In the
 * build, the engine worker is instead one more entry of the page's own build (an emitted chunk):
 * Rolldown puts the modules both need in shared chunks, and a worker fetches the very files the
 * page fetched (from the HTTP cache, or the service worker's). `startEngineWorker` keeps the
 * pattern the dev server and Vitest understand; the build swaps its URL for the emitted chunk's.
 * Fails loudly if the pattern moves, so a refactor cannot bring the second copy back silently.
 */
function engineWorkerSharesChunks(): Plugin {
  const starter = /[\\/]src[\\/]ui[\\/]worker[\\/]engine-worker\.ts$/;
  const pattern = "new URL('./engine.worker.ts', import.meta.url)";
  const entry = fileURLToPath(new URL('./src/ui/worker/engine.worker.ts', import.meta.url));
  let referenceId: string | null = null;
  return {
    name: 'lockstep:engine-worker-shares-chunks',
    apply: 'build',
    enforce: 'pre',
    buildStart() {
      referenceId = this.emitFile({ type: 'chunk', id: entry, name: 'engine.worker' });
    },
    transform(code, id) {
      if (!starter.test(id)) return null;
      if (!code.includes(pattern) || referenceId === null) throw new Error(`engine worker: ${pattern} not found in engine-worker.ts; re-check vite.config.ts`);
      return { code: code.replace(pattern, `new URL(import.meta.ROLLUP_FILE_URL_${referenceId})`), map: null };
    },
  };
}

/**
 * Rolldown names a chunk of modules the page and the engine worker share after one of them (a
 * lesson, valibot's `dist`); the chunks that carry the engine are named for it instead, so the
 * network log says what each file is.
 */
function sharedChunkFileName(chunk: { name: string; moduleIds: readonly string[] }): string {
  const has = (pattern: RegExp) => chunk.moduleIds.some((id) => pattern.test(id.replaceAll('\\', '/')));
  if (has(/\/src\/engine\/simulation\.ts$/)) return 'assets/engine-[hash].js';
  if (has(/\/src\/engine\/redis\/[^/]+\.ts$/)) return 'assets/engine-redis-[hash].js';
  return 'assets/[name]-[hash].js';
}

/**
 * Offline after the first visit: a service worker precaches the whole build (page, worker, styles)
 * and serves it when the network is gone. `base: './'` keeps every URL relative, so the same build
 * works at any path of any static host (docs/DEPLOY.md). The page registers it itself once it is
 * ready (src/main.tsx), so the precache never competes with the first screen or the engine worker.
 */
const offline = VitePWA({
  registerType: 'autoUpdate',
  injectRegister: null,
  manifest: {
    name: 'Lockstep: Redis lock race simulator',
    short_name: 'Lockstep',
    description: 'Interactive, deterministic race-condition simulator for Redis distributed locks',
    start_url: './',
    scope: './',
    display: 'standalone',
    background_color: '#ffffff',
    theme_color: '#3558c9',
    icons: [],
  },
  workbox: {
    globPatterns: ['**/*.{js,css,html,svg,png,webmanifest}'],
    // The precache holds what a first visit loads (the page, its workers, every lesson, Lua), so a
    // classroom's lessons work offline after one visit. The parts a person opens on demand are left
    // out, so a first visit downloads no code it did not ask for (issue 26: under 450 kB of gzip):
    // each is cached when it first loads (below, and src/ui/offline-cache.ts for what loaded before
    // the service worker took control). Offline before its first use, a part says it cannot load
    // (src/ui/components/OnDemand.tsx). Names are the chunks' own, from their modules.
    globIgnores: [
      'assets/Workbench-*', // the workbench: CodeMirror and the program, schedule and script editors
      'assets/workbench-*',
      'assets/draft-check*',
      'assets/explore*', // "Find a race": the explorer
      'assets/history*', // importing a real history
      'assets/property-check*',
      'assets/export-*', // SVG and PNG export
      'assets/sequence-svg-*',
      'assets/io-actions-*', // files and links of one's own scenarios
      'assets/definition-link-*',
      'assets/*Dialog-*', // the dialogs: shortcuts, nodes, the Redlock debate, replay on a real Redis
      'assets/outcomes-inline-*', // only where a browser has no workers
    ],
    runtimeCaching: [
      {
        // Same-origin built files only; hashed names never change, so the cache answers first. A
        // module's request carries an Origin header a page's fetch() lacks: `Vary: Origin` (vite
        // preview, many hosts) must not make the copy kept by offline-cache.ts miss.
        urlPattern: /\/assets\/[^/]+\.(?:js|css)$/,
        handler: 'CacheFirst',
        options: { cacheName: 'lockstep-on-demand', expiration: { maxEntries: 200 }, matchOptions: { ignoreVary: true } },
      },
    ],
    navigateFallback: 'index.html',
    // Control the page on the first visit, so it works offline from then on.
    clientsClaim: true,
    skipWaiting: true,
  },
});

/**
 * The page's Content Security Policy, written once: the built page carries it as a `<meta>` (so
 * hosts that cannot set headers, such as GitHub Pages, still enforce it), `vite preview` sends it as
 * a header (what the end-to-end tests load), and the build writes Netlify's `_headers`;
 * docs/DEPLOY.md gives it for nginx. Nothing inline, nothing evaluated: scripts, styles, workers and
 * the service worker come from the page's own origin only. `frame-ancestors *` keeps the embed
 * (docs/AUTOMATION.md, "Embed mode") open to any course page; a `<meta>` cannot carry it, so it is
 * a header only.
 */
const directives: readonly (readonly [string, string])[] = [
  ['default-src', "'self'"],
  ['script-src', "'self'"],
  ['style-src', "'self'"],
  ['img-src', "'self' data:"],
  ['font-src', "'self'"],
  ['connect-src', "'self'"],
  ['worker-src', "'self'"],
  ['manifest-src', "'self'"],
  ['object-src', "'none'"],
  ['base-uri', "'self'"],
  ['form-action', "'none'"],
];

/** Directives a `<meta>` policy ignores (the browser warns about them there). */
const headerOnly: readonly (readonly [string, string])[] = [['frame-ancestors', '*']];

function format(list: readonly (readonly [string, string])[]): string {
  return list.map(([name, value]) => `${name} ${value}`).join('; ');
}

/** The policy as an HTTP header value. */
const cspHeader = format([...directives, ...headerOnly]);

/** The policy as a `<meta http-equiv="Content-Security-Policy">` carries it. */
const cspMeta = format(directives);

/**
 * The Content Security Policy in the built page: a `<meta>`
 * first in its head, and Netlify's `_headers` beside it. Build only: the dev server's React
 * refresh needs an inline script.
 */
function contentSecurityPolicy(): Plugin {
  return {
    name: 'lockstep:content-security-policy',
    apply: 'build',
    transformIndexHtml: () => [{ tag: 'meta', attrs: { 'http-equiv': 'Content-Security-Policy', content: cspMeta }, injectTo: 'head-prepend' }],
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: '_headers', source: `/*\n  Content-Security-Policy: ${cspHeader}\n` });
    },
  };
}

export default defineConfig({
  base: './',
  plugins: [react(), pageLoadsLuaOnDemand(), fengariBrowserTrim(), engineWorkerSharesChunks(), contentSecurityPolicy(), offline],
  optimizeDeps: { rolldownOptions: { plugins: [fengariDevPatch()] } },
  build: {
    chunkSizeWarningLimit: 3000,
    sourcemap: true,
    // Vite preloads a dynamic import's dependencies with <link> tags; the engine worker has no
    // document, and its job's chunk statically imports what it needs anyway.
    modulePreload: { resolveDependencies: (_file, deps, { hostId }) => (/(^|\/)engine\.worker-/.test(hostId) ? [] : deps) },
    rolldownOptions: { output: { chunkFileNames: sharedChunkFileName } },
  },
  server: { port: 5173, strictPort: false },
  preview: { headers: { 'Content-Security-Policy': cspHeader } },
});
