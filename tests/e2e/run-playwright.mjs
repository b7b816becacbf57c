#!/usr/bin/env node
// Finds a Chromium for the end-to-end tests, then runs Playwright with it.
// Order: Playwright's own Chromium; a system Chromium; Playwright's download; Debian's
// `chromium` package (only as root on Debian). Anything else stops with install advice.
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { chromium } from '@playwright/test';

const SYSTEM_CHROMIUMS = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

function playwrightOwnChromium() {
  try {
    const path = chromium.executablePath();
    return path && existsSync(path) ? path : null;
  } catch {
    return null;
  }
}

function systemChromium() {
  return SYSTEM_CHROMIUMS.find((path) => existsSync(path)) ?? null;
}

function run(command, args) {
  console.error(`[e2e] $ ${command} ${args.join(' ')}`);
  return spawnSync(command, args, { stdio: 'inherit' }).status === 0;
}

function findOrInstallChromium() {
  if (process.env.LOCKSTEP_CHROMIUM && existsSync(process.env.LOCKSTEP_CHROMIUM)) {
    return { path: process.env.LOCKSTEP_CHROMIUM, own: false };
  }
  const own = playwrightOwnChromium();
  if (own) return { path: own, own: true };
  const system = systemChromium();
  if (system) return { path: system, own: false };

  console.error('[e2e] No Chromium found. Trying Playwright\'s own download (npx playwright install chromium)...');
  if (run('npx', ['playwright', 'install', 'chromium']) && playwrightOwnChromium()) {
    return { path: playwrightOwnChromium(), own: true };
  }
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (isRoot && existsSync('/etc/debian_version')) {
    console.error('[e2e] Playwright\'s download failed. Installing Debian\'s chromium package (apt-get install -y chromium)...');
    if (run('apt-get', ['update']) && run('apt-get', ['install', '-y', 'chromium']) && systemChromium()) {
      return { path: systemChromium(), own: false };
    }
  }
  console.error(
    '[e2e] Could not find or install Chromium. Install one of:\n' +
      '  npx playwright install chromium        (Playwright\'s own build)\n' +
      '  sudo apt-get install -y chromium       (Debian/Ubuntu)\n' +
      'or point LOCKSTEP_CHROMIUM at a Chromium binary.',
  );
  process.exit(1);
}

const browser = findOrInstallChromium();
console.error(`[e2e] Using ${browser.own ? 'Playwright\'s own Chromium' : 'system Chromium'}: ${browser.path}`);
const env = { ...process.env, LOCKSTEP_CHROMIUM: browser.own ? '' : browser.path };
const result = spawnSync('npx', ['playwright', 'test', ...process.argv.slice(2)], { stdio: 'inherit', env });
process.exit(result.status ?? 1);
