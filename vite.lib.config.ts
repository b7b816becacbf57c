import { defineConfig } from 'vite';

/**
 * The package's Node build (`npm run build:package`): the Node API (`lockstep`), the Playwright
 * fixture (`lockstep/playwright`) and the CLI as ES modules in dist-pkg/lib, with their dependencies
 * (fengari, valibot) bundled so installing the tarball needs nothing else; Playwright is the
 * engineer's own (a peer dependency), and Node's built-ins stay imports.
 */
export default defineConfig({
  publicDir: false,
  build: {
    ssr: true,
    outDir: 'dist-pkg/lib',
    emptyOutDir: true,
    target: 'node20',
    sourcemap: true,
    minify: false,
    rollupOptions: {
      input: { index: 'src/api/index.ts', playwright: 'src/playwright/index.ts', cli: 'src/cli/main.ts', 'explore-worker': 'src/api/explore-worker.ts' },
      output: { format: 'es', entryFileNames: '[name].js', chunkFileNames: 'chunks/[name]-[hash].js' },
    },
  },
  ssr: { noExternal: true, external: ['@playwright/test'], target: 'node' },
});
