import { defineConfig } from 'vitest/config';

export default defineConfig({
  // Searches that run real lock libraries take seconds (4 s for the Redlock search on an idle
  // 2-core machine): the bound is a hang detector, not a budget a busy machine can break.
  test: { include: ['tests/**/*.test.ts'], environment: 'node', testTimeout: 60_000 },
});
