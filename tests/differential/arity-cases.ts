import { COMMANDS } from '../../src/engine/redis/commands';
import { COMMANDS_NEWER_THAN_7_0 } from '../../src/engine/redis/commands/index';
import { diffCase, type DiffCase } from './harness';

/**
 * Arity cases generated from the command table: for each command, one word too few and (for
 * fixed arity) one too many. The real server decides what the right arity is, so a wrong entry in
 * the table shows up as a mismatch.
 */
export function arityCases(): DiffCase[] {
  return Object.entries(COMMANDS)
    .filter(([name]) => !COMMANDS_NEWER_THAN_7_0.has(name))
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([name, spec]) => {
      const words = (count: number) => [name.toUpperCase(), ...Array.from({ length: count - 1 }, (_, i) => `a${i}`)].join(' ');
      const lines: string[] = [];
      const minimum = Math.abs(spec.arity);
      if (minimum > 1) lines.push(words(minimum - 1));
      if (spec.arity > 0) lines.push(words(spec.arity + 1));
      // The smallest valid call must not be an arity error on either side. TIME answers each
      // side's own clock (compared in cases/epoch.ts); QUIT would close the suite's connection;
      // INFO answers each server's own figures (compared by field in cases/connection.ts).
      if (name !== 'time' && name !== 'quit' && name !== 'info') lines.push(words(minimum));
      return diffCase(`arity of ${name}`, ...lines);
    });
}
