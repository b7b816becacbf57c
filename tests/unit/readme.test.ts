import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { VIOLATION_KINDS } from '../../src/engine/trace';

// Goal: what the README tells a newcomer stays true of the code as the code grows.

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

describe('README', () => {
  it('names every violation kind the checkers can report, and no other', () => {
    const listed = /the checkers found \(([^)]*)\)/.exec(readme.replace(/\n/g, ' '));
    expect(listed, 'the sentence listing the violation kinds').not.toBeNull();
    const kinds = [...listed![1].matchAll(/`([a-z-]+)`/g)].map((m) => m[1]);
    expect([...kinds].sort()).toEqual([...VIOLATION_KINDS].sort());
  });
});
