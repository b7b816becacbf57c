import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/engine/redis/commands';
import { COMMANDS_NEWER_THAN_7_0 } from '../../src/engine/redis/commands/index';
import type { Reply } from '../../src/engine/redis/reply';
import { arityCases } from './arity-cases';
import { differentialSuite, useRealRedis } from './harness';

// One word too few / too many for every command in the table, against the real server.
differentialSuite('arity', arityCases());

// The table's arity and write flag are Redis's own (COMMAND INFO), command by command.
const real = useRealRedis();
describe('command table matches COMMAND INFO', () => {
  for (const [name, spec] of Object.entries(COMMANDS).filter(([n]) => !COMMANDS_NEWER_THAN_7_0.has(n)).sort(([a], [b]) => (a < b ? -1 : 1))) {
    it(`${name}: arity ${spec.arity}, ${spec.write ? 'write' : 'read-only'}`, async () => {
      const info = await real().send(['COMMAND', 'INFO', name]);
      const entry = info.type === 'array' ? info.value[0] : null;
      if (!entry || entry.type !== 'array') throw new Error(`real redis-server does not know '${name}': ${JSON.stringify(info)}`);
      const [, arity, flags] = entry.value as Reply[];
      const flagNames = flags.type === 'array' ? flags.value.map((f) => (f.type === 'status' ? f.value : '')) : [];
      expect({ arity: arity.type === 'integer' ? Number(arity.value) : null, write: flagNames.includes('write') }, `COMMAND INFO ${name}`).toEqual({
        arity: spec.arity,
        write: spec.write,
      });
    });
  }
});
