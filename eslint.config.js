// Lockstep's lint: general hygiene plus the walls between layers (docs/ARCHITECTURE.md, "Walls").
// The walls are import rules, so a wrong import fails `npm test`; tests/unit/lint-walls.test.ts
// proves each one fires on a deliberately wrong file.
import js from '@eslint/js';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** Globals that read the wall clock, randomness, the DOM or the host: the engine must not touch them. */
const ENGINE_FORBIDDEN_GLOBALS = [
  'Date',
  'setTimeout',
  'setInterval',
  'setImmediate',
  'clearTimeout',
  'clearInterval',
  'queueMicrotask',
  'requestAnimationFrame',
  'performance',
  'crypto',
  'globalThis',
  'window',
  'self',
  'document',
  'navigator',
  'location',
  'history',
  'localStorage',
  'sessionStorage',
  'fetch',
  'XMLHttpRequest',
  'WebSocket',
  'Worker',
  'process',
].map((name) => ({
  name,
  message: 'The engine is deterministic and runs in Node, the page and a worker: time is the virtual clock, randomness the seeded RNG.',
}));

const ENGINE_FORBIDDEN_PROPERTIES = [
  { object: 'Math', property: 'random', message: 'Use the seeded RNG (src/engine/rng.ts): a run must replay from its seed.' },
  { object: 'Date', property: 'now', message: 'Time in the engine is the virtual clock (world.nowMs).' },
  { object: 'performance', property: 'now', message: 'Time in the engine is the virtual clock (world.nowMs).' },
];

/**
 * Who may import whom. Arrows point the way imports may go:
 *   components, views -> store -> engine;  i18n is a leaf anyone may import;  scenarios are data.
 * Each zone forbids `target` to import anything under `from`.
 */
const WALLS = [
  {
    target: './src/engine',
    from: ['./src/ui', './src/cli', './src/scenarios', './src/definition', './src/api', './src/main.tsx', './dev'],
    message: 'The engine imports nothing above it (ui, cli, scenarios): views -> store -> engine.',
  },
  {
    target: './src/session',
    from: ['./src/ui', './src/cli', './src/scenarios', './src/definition', './src/api', './src/history', './src/main.tsx', './dev'],
    message: 'The run session is framework-free over the engine (a store, a test or a worker drives it): it imports the engine, never the ui above it.',
  },
  {
    target: './src/i18n',
    from: ['./src/engine', './src/ui', './src/cli', './src/scenarios', './src/definition', './src/api', './src/main.tsx', './dev'],
    message: 'The message catalog is a leaf: it imports nothing from the project.',
  },
  {
    target: './src/api',
    from: ['./src/ui', './src/cli', './src/main.tsx', './dev'],
    message: 'The Node API runs in Node without a page: it uses the engine, the definitions and the scenarios.',
  },
  {
    target: './src/definition',
    from: ['./src/ui', './src/cli', './src/scenarios', './src/api', './src/main.tsx', './dev'],
    message: 'Scenario definitions (the JSON format) sit on the engine: the store, the worker, the CLI and the Node API import them, not the other way round.',
  },
  {
    target: './src/history',
    from: ['./src/ui', './src/cli', './src/scenarios', './src/definition', './src/api', './src/main.tsx', './dev'],
    message: 'The history checker is pure TypeScript over the engine (the page may run it): the CLI and the Node API import it, not the other way round.',
  },
  {
    target: './src/scenarios',
    from: ['./src/ui', './src/cli', './src/api', './src/main.tsx', './dev'],
    message: 'Scenarios are data over the engine; they know nothing of the UI or the CLI.',
  },
  {
    target: ['./src/ui/components', './src/ui/views', './src/ui/App.tsx'],
    from: ['./src/engine', './src/scenarios'],
    message: 'Components and views read the store (src/ui/store), never the engine or the scenario registry, not even for types: the store publishes what they need.',
  },
  {
    target: ['./src/ui/components', './src/ui/views', './src/ui/App.tsx'],
    from: './src/session',
    message: 'Components and views read the store, never the run session: the store is its only client.',
  },
  {
    target: ['./src/ui/components', './src/ui/views', './src/ui/App.tsx'],
    from: ['./src/ui/share', './src/ui/worker', './src/ui/test-api.ts'],
    message: 'Components and views talk to the store only; links, storage, the worker and the test API are wired in src/main.tsx.',
  },
  {
    target: './src/ui/views',
    from: './src/ui/store',
    except: ['./published.ts'],
    message: 'The run views are pure props -> SVG: they may import the types the store publishes (store/published.ts), nothing else of the store.',
  },
  {
    target: './src/ui/views',
    from: './src/ui/components',
    message: 'Views are below components: a component may draw a view, not the other way round.',
  },
  {
    target: './src/ui/store',
    from: ['./src/ui/components', './src/ui/views', './src/ui/share', './src/ui/App.tsx', './src/ui/test-api.ts', './src/main.tsx'],
    message: 'The store is below the page: share, components, views and the test API import the store, not the other way round.',
  },
  {
    // The simulation slice is the run itself (it owns the whole store's run state); every other
    // slice is a feature that sees its own state and its port (store/ports.ts).
    target: './src/ui/store/slices/!(simulation).ts',
    from: ['./src/ui/store/slices', './src/ui/store/store-types.ts', './src/ui/store/createSimStore.ts', './src/ui/store/create-store.ts', './src/ui/store/wire-ports.ts', './src/ui/store/runtime.ts', './src/ui/store/run-client.ts'],
    message: 'A slice imports no other slice and not the whole store (nor the runtime behind it): it gets its own state and its port (store/ports.ts), wired in store/wire-ports.ts.',
  },
  {
    target: './src/ui/worker',
    from: ['./src/ui/store', './src/ui/components', './src/ui/views', './src/ui/share', './src/ui/App.tsx'],
    message: 'The worker runs the engine; it owns its protocol (worker/protocol.ts) and imports nothing of the page.',
  },
  {
    target: './src/ui/share',
    from: ['./src/ui/components', './src/ui/views', './src/ui/App.tsx'],
    message: 'share/ adapts the store to the browser (address bar, localStorage); it does not import components.',
  },
  {
    target: './src/cli',
    from: './src/ui',
    message: 'The CLI runs in Node: it uses the engine, the scenarios and the catalog, never the page.',
  },
  {
    target: './src',
    from: './dev',
    message: 'Dev harnesses may use the page; the page never imports them.',
  },
];

export default tseslint.config(
  {
    ignores: ['dist/**', 'dist-pkg/**', 'node_modules/**', 'examples/*/node_modules/**', 'examples/*/test-results/**', 'examples/*/playwright-report/**', 'test-results/**', 'playwright-report/**', '.screenshots/**', 'tests/unit/fixtures/lint/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx,js,mjs}'],
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    plugins: { 'import-x': importX },
    settings: {
      // no-cycle parses each imported file: it needs to know TypeScript files and their parser.
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.mjs', '.json', '.d.ts'] })],
    },
    rules: {
      'prefer-const': ['error', { destructuring: 'all' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      'import-x/no-restricted-paths': ['error', { zones: WALLS }],
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  {
    files: ['src/ui/**/*.{ts,tsx}', 'dev/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  {
    files: ['src/engine/**/*.ts'],
    languageOptions: { globals: { ...globals.es2022 } },
    rules: {
      'no-restricted-globals': ['error', ...ENGINE_FORBIDDEN_GLOBALS],
      'no-restricted-properties': ['error', ...ENGINE_FORBIDDEN_PROPERTIES],
    },
  },
  {
    // The checker reads files line by line from whoever calls it: no Node modules, so a page can run it.
    files: ['src/history/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ group: ['node:*'], message: 'src/history is pure TypeScript: the CLI and the Node API do the I/O.' }] }] },
  },
  {
    // The session is headless: no framework, no store, no DOM (it may move into a Web Worker unchanged).
    files: ['src/session/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['react', 'react-dom', 'react/*', 'react-dom/*', 'zustand', 'zustand/*'], message: 'src/session is framework-free: the store wraps it, not the other way round.' }] }],
      'no-restricted-globals': ['error', ...['window', 'document', 'localStorage', 'sessionStorage', 'location', 'history', 'navigator'].map((name) => ({ name, message: 'src/session runs without a page (a test, a worker).' }))],
    },
  },
  {
    // ioredis-mock reads the wall clock and resolves through the global Promise: its bridge pins
    // both for one synchronous call. The bridge leaves with the mock (issue 10, item 1).
    files: ['src/engine/redis/mock-bridge.ts'],
    rules: { 'no-restricted-globals': 'off', 'no-restricted-properties': 'off' },
  },
);
