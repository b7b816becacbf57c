#!/usr/bin/env node
// `npm run checks`: lint and typecheck side by side (the first step of `npm test`; each is one
// process on one core, so on a 2-core machine the pair takes as long as the slower one). Each
// one's output is printed whole when it ends, so the log reads as if they ran in turn.
import { spawn } from 'node:child_process';

function run(script) {
  const startMs = Date.now();
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('close', (code) => {
      process.stdout.write(Buffer.concat(output));
      const seconds = ((Date.now() - startMs) / 1000).toFixed(1);
      console.error(`[checks] ${script}: ${code === 0 ? 'passed' : `FAILED (exit ${code})`} in ${seconds} s`);
      resolve(code === 0);
    });
  });
}

const results = await Promise.all([run('lint'), run('typecheck')]);
process.exit(results.every(Boolean) ? 0 : 1);
