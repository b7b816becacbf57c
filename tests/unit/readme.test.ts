import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { VIOLATION_KINDS } from '../../src/engine/trace';
import { SCENARIOS } from '../../src/scenarios';

// Goal: what the README tells a newcomer stays true of the code as the code grows.

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

describe('README', () => {
  it('names every violation kind the checkers can report, and no other', () => {
    const listed = /the checkers found \(([^)]*)\)/.exec(readme.replace(/\n/g, ' '));
    expect(listed, 'the sentence listing the violation kinds').not.toBeNull();
    const kinds = [...listed![1].matchAll(/`([a-z-]+)`/g)].map((m) => m[1]);
    expect([...kinds].sort()).toEqual([...VIOLATION_KINDS].sort());
  });

  it('lists every lesson in teaching order, with its title and variants', () => {
    const listed = [...readme.matchAll(/^- `([a-z0-9-]+)`: (.*) \((.*)\)$/gm)];
    expect(listed.map((m) => m[1])).toEqual(SCENARIOS.map((s) => s.id));
    for (const [i, s] of SCENARIOS.entries()) {
      expect(listed[i][2]).toBe(s.title.en);
      expect(listed[i][3]).toBe(s.variants.map((v) => `\`${v.id}\``).join(', '));
    }
  });
});
