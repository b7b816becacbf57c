import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/unit/**/*.test.ts', 'tests/unit/**/*.test.tsx', 'tests/differential/**/*.test.ts', 'tests/replay/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    // Tests never time themselves; benchmarks live in bench/.
    allowOnly: false,
  },
});
