import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

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

export default defineConfig({
  base: './',
  plugins: [react(), fengariBrowserTrim()],
  worker: { format: 'es', plugins: () => [fengariBrowserTrim()] },
  optimizeDeps: { rolldownOptions: { plugins: [fengariDevPatch()] } },
  build: { chunkSizeWarningLimit: 3000, sourcemap: true },
  server: { port: 5173, strictPort: false },
});
