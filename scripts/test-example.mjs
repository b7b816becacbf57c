#!/usr/bin/env node
// CI for the outside project in examples/my-lock-tests: builds Lockstep's package, packs it with
// `npm pack`, installs the tarball there as an engineer would, then type-checks the project and
// runs its Vitest and Playwright tests. Needs only the npm registry (for the example's own
// devDependencies, already in npm's cache after `npm ci` here) and a Chromium.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from '@playwright/test';

const root = join(import.meta.dirname, '..');
const example = join(root, 'examples', 'my-lock-tests');
const SYSTEM_CHROMIUMS = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

function run(command, args, options = {}) {
  console.error(`[example] $ ${command} ${args.join(' ')}${options.cwd ? `   (in ${options.cwd})` : ''}`);
  const result = spawnSync(command, args, { stdio: 'inherit', ...options });
  if (result.status !== 0) {
    console.error(`[example] failed: ${command} ${args.join(' ')} (exit ${result.status ?? result.signal})`);
    process.exit(1);
  }
}

/** Playwright's own Chromium when installed, else a system one (as tests/e2e/run-playwright.mjs). */
function chromiumPath() {
  if (process.env.LOCKSTEP_CHROMIUM) return process.env.LOCKSTEP_CHROMIUM;
  try {
    if (existsSync(chromium.executablePath())) return '';
  } catch {
    // no Playwright browser here
  }
  return SYSTEM_CHROMIUMS.find((path) => existsSync(path)) ?? '';
}

run('npm', ['run', 'build:package'], { cwd: root });
const packDir = mkdtempSync(join(tmpdir(), 'lockstep-pack-'));
run('npm', ['pack', '--ignore-scripts', '--silent', '--pack-destination', packDir, '--json'], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
const tarball = readdirTarball(packDir);
copyFileSync(tarball, join(example, 'lockstep.tgz'));
rmSync(packDir, { recursive: true, force: true });
// A fresh install of the tarball every run: never yesterday's package.
rmSync(join(example, 'node_modules', 'lockstep'), { recursive: true, force: true });
run('npm', ['install', '--no-audit', '--no-fund', '--no-package-lock', '--prefer-offline'], { cwd: example });
run('npx', ['tsc', '-p', 'tsconfig.json'], { cwd: example });
run('npx', ['vitest', 'run'], { cwd: example });
run('npx', ['playwright', 'test'], { cwd: example, env: { ...process.env, CHROMIUM_PATH: chromiumPath() } });

function readdirTarball(dir) {
  const name = `lockstep-${JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version}.tgz`;
  const path = join(dir, name);
  if (!existsSync(path)) {
    console.error(`[example] npm pack wrote no ${name} in ${dir}`);
    process.exit(1);
  }
  return path;
}
