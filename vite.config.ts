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

export default defineConfig({
  base: './',
  plugins: [ioredisMockBrowserPatch(), react()],
  worker: { format: 'es', plugins: () => [ioredisMockBrowserPatch()] },
  optimizeDeps: { exclude: ['ioredis-mock'] },
  build: { chunkSizeWarningLimit: 3000, sourcemap: true },
  server: { port: 5173, strictPort: false },
});
