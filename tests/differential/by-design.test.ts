import { describe, it } from 'vitest';
import { BY_DESIGN_CASES } from './by-design';
import { argvOf, describeReply, flushReal, realExecutor, simExecutor, useRealRedis, type Observation } from './harness';
import type { Reply } from '../../src/engine/redis/reply';

/** The named differences: each must differ from Redis exactly as by-design.ts documents, no more. */
const real = useRealRedis();
describe('differential: by design', () => {
  for (const byDesign of BY_DESIGN_CASES) {
    it(byDesign.name, async () => {
      const client = real();
      await flushReal(client);
      const realSide = realExecutor(client);
      const simSide = simExecutor(byDesign.sim ?? {});
      const realSeen: Observation[] = [];
      const simSeen: Observation[] = [];
      try {
        for (const line of byDesign.lines) {
          const argv = argvOf(line);
          realSeen.push(await realSide.run('main', argv));
          simSeen.push(await simSide.run('main', argv));
        }
      } finally {
        await realSide.close?.();
      }
      const problem = byDesign.check(realSeen, simSeen);
      if (problem !== null) {
        // A deep array reads as its length: describing a reply 7995 levels deep would overflow.
        const one = (r: Reply) => (r.type === 'array' ? `array of ${r.value.length}` : describeReply(r).slice(0, 200));
        const shown = (o: Observation) => [o.reply, ...(o.pushes.main ?? [])].map(one).join(' + ');
        const transcript = byDesign.lines.map((line, i) => `  ${line.slice(0, 120)}\n    real: ${shown(realSeen[i])}\n    sim:  ${shown(simSeen[i])}`);
        throw new Error(`By-design case "${byDesign.name}" no longer differs as documented: ${problem}\nReason on record: ${byDesign.reason}\n${transcript.join('\n')}`);
      }
    });
  }
});
