// Goal: the store's files form no import circle, counting every import (values, types, re-exports
// and dynamic imports): ESLint's no-cycle rule passes over type-only imports, which is how an
// 18-file circle grew among the slices and the type hub. A canary proves the search finds one.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const IMPORT = /(?:^|\n)\s*(?:import|export)\s+(?:type\s+)?[^'";]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;
const fileCountMax = 500;

function filesUnder(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.tsx?$/.test(name)) out.push(path);
      if (out.length > fileCountMax) throw new Error(`more than ${fileCountMax} files under ${root}`);
    }
  };
  walk(root);
  return out;
}

function resolveImport(from: string, spec: string): string | null {
  if (!spec.startsWith('.')) return null;
  const base = resolve(dirname(from), spec);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts')]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return null;
}

/** The strongly connected components of more than one file (Tarjan), as paths relative to `root`. */
function importCycles(root: string): string[][] {
  const files = filesUnder(resolve(root));
  const edges = new Map<string, string[]>();
  for (const file of files) {
    const targets = new Set<string>();
    for (const match of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const target = resolveImport(file, match[1] ?? match[2]);
      if (target !== null && files.includes(target)) targets.add(target);
    }
    edges.set(file, [...targets]);
  }
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    for (let w = stack.pop()!; ; w = stack.pop()!) {
      onStack.delete(w);
      component.push(relative(resolve(root), w));
      if (w === v) break;
    }
    if (component.length > 1) cycles.push(component.sort());
  };
  for (const file of files) if (!index.has(file)) visit(file);
  return cycles;
}

describe('store import cycles', () => {
  it('finds the circle in the lint fixture (canary)', () => {
    expect(importCycles('tests/unit/fixtures/lint/cycle')).toEqual([['a.ts', 'b.ts']]);
  });

  it('finds none among the files of src/ui/store', () => {
    expect(importCycles('src/ui/store')).toEqual([]);
  });
});
