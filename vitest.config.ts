import { availableParallelism } from 'node:os';
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
    // Vitest's default (one worker fewer than cores) runs one file at a time on a 2-core machine;
    // two files side by side took the suite from 512 s to 421 s there (docs/TESTING.md). The
    // slowest test stays at half its 30 s bound with both cores busy.
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
