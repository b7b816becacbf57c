import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // The gallery (examples/library-races) imports 'lockstep' as an engineer's project does: here, this checkout's Node API.
  resolve: { alias: [{ find: /^lockstep$/, replacement: fileURLToPath(new URL('./src/api/index.ts', import.meta.url)) }] },
  test: {
    include: ['tests/unit/**/*.test.ts', 'tests/unit/**/*.test.tsx', 'tests/differential/**/*.test.ts', 'tests/replay/**/*.test.ts', 'examples/library-races/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    // Tests never time themselves; benchmarks live in bench/.
    allowOnly: false,
  },
});
