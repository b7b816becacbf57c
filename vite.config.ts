import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

/**
 * ioredis-mock's browser build (8.13.x) calls require("fs"|"path"|"vm") at module init and
 * reads `window`, which a Web Worker lacks. Those requires sit inside try/catch upstream, so
 * replacing them with empty objects is safe. Fail the build loudly if the code we patch is not
 * there, so an upgrade cannot silently break the browser path.
 */
function ioredisMockBrowserPatch(): Plugin {
  const requirePattern = /\b[A-Za-z_$][\w$]*\("(fs|path|vm)"\)/g;
  return {
    name: 'lockstep:ioredis-mock-browser-patch',
    enforce: 'pre',
    transform(code, id) {
      if (!/ioredis-mock[\\/]browser\.js(\?.*)?$/.test(id)) return null;
      const found = new Set<string>();
      const patched = code.replace(requirePattern, (_match, name: string) => {
        found.add(name);
        return '({})';
      });
      for (const name of ['fs', 'path', 'vm']) {
        if (!found.has(name)) {
          throw new Error(`ioredis-mock browser patch: require("${name}") not found; re-check the patch for this version`);
        }
      }
      return { code: `var window = globalThis;\n${patched}`, map: null };
    },
  };
}

/**
 * fengari decides "browser or Node?" with `typeof process` and reads process.env at module init.
 * In the page, ioredis-mock's browser build may define a global `process` first, which sends
 * fengari down its Node path (require('os')). Pin fengari to its browser path. Applied to the dev
 * pre-bundler too, where ordinary plugins do not run.
 */
function fengariBrowserPatch(): Plugin {
  return {
    name: 'lockstep:fengari-browser-patch',
    enforce: 'pre',
    transform(code, id) {
      if (!/fengari[\\/]src[\\/]luaconf\.js(\?.*)?$/.test(id)) return null;
      const patched = code
        .replace('(process.env.FENGARICONF ? JSON.parse(process.env.FENGARICONF) : {})', '({})')
        .replace('if (typeof process === "undefined") {', 'if (true) {');
      if (patched.includes('process.env.FENGARICONF') || !patched.includes('if (true) {')) {
        throw new Error('fengari browser patch: luaconf.js changed; re-check the patch for this version');
      }
      return { code: patched, map: null };
    },
  };
}

export default defineConfig({
  base: './',
  plugins: [ioredisMockBrowserPatch(), fengariBrowserPatch(), react()],
  worker: { format: 'es', plugins: () => [ioredisMockBrowserPatch(), fengariBrowserPatch()] },
  optimizeDeps: { exclude: ['ioredis-mock'], rolldownOptions: { plugins: [fengariBrowserPatch()] } },
  build: { chunkSizeWarningLimit: 3000, sourcemap: true },
  server: { port: 5173, strictPort: false },
});
