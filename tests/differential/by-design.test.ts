import { describe, it } from 'vitest';
import type { Reply } from '../../src/engine/redis/reply';
import { BY_DESIGN_CASES } from './by-design';
import { argvOf, describeReply, flushReal, useRealRedis } from './harness';
import { createSimServer } from './sim-server';

/** The named differences: each must differ from Redis exactly as by-design.ts documents, no more. */
const real = useRealRedis();
describe('differential: by design', () => {
  for (const byDesign of BY_DESIGN_CASES) {
    it(byDesign.name, async () => {
      const client = real();
      await flushReal(client);
      const server = createSimServer();
      const realReplies: Reply[] = [];
      const simReplies: Reply[] = [];
      for (const line of byDesign.lines) {
        const argv = argvOf(line);
        realReplies.push(await client.send(argv));
        simReplies.push(server.execute(argv, byDesign.simNowMs ?? Date.now()));
      }
      const problem = byDesign.check(realReplies, simReplies);
      if (problem !== null) {
        const shown = (r: Reply) => (r.type === 'array' ? `array of ${r.value.length}` : describeReply(r).slice(0, 200));
        const transcript = byDesign.lines.map((line, i) => `  ${line.slice(0, 120)}\n    real: ${shown(realReplies[i])}\n    sim:  ${shown(simReplies[i])}`);
        throw new Error(`By-design case "${byDesign.name}" no longer differs as documented: ${problem}\nReason on record: ${byDesign.reason}\n${transcript.join('\n')}`);
      }
    });
  }
});
