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

export default defineConfig({
  base: './',
  plugins: [react()],
  worker: { format: 'es' },
  optimizeDeps: { rolldownOptions: { plugins: [fengariDevPatch()] } },
  build: { chunkSizeWarningLimit: 3000, sourcemap: true },
  server: { port: 5173, strictPort: false },
});
