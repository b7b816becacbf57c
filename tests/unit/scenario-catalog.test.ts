// Goal: the page's scenario catalog (src/scenarios/catalog.ts) is exactly what the generator makes
// from the registry, so the picker, the lesson order and the loaders cannot drift from the
// scenarios Node runs; `usesScripts` is never wrong the unsafe way (a scenario said to need no
// Lua engine never sends a script command); and a realm without a Lua engine refuses a script
// loudly instead of answering wrongly.
import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { parseSchedule } from '../../src/engine/schedule';
import { nodeIdsOf } from '../../src/engine/scenario';
import { SCRIPT_COMMANDS } from '../../src/engine/redis/script-engine';
import { Simulation } from '../../src/engine/simulation';
import { randomPolicy, runPolicy } from '../../src/engine/policies';
import { SCENARIOS } from '../../src/scenarios';
import { firstScenario, SCENARIO_CATALOG } from '../../src/scenarios/catalog';
import { renderScenarioCatalog } from '../../scripts/scenario-catalog';

describe('the page\'s scenario catalog', () => {
  it('is up to date with the registry (run `npm run scenarios:catalog` when this fails)', async () => {
    const committed = readFileSync(new URL('../../src/scenarios/catalog.ts', import.meta.url), 'utf8');
    expect(committed === (await renderScenarioCatalog()), 'src/scenarios/catalog.ts differs from the generator output').toBe(true);
  });

  it('lists every scenario in teaching order, and each loader gives that scenario', async () => {
    expect(SCENARIO_CATALOG.map((e) => e.id)).toEqual(SCENARIOS.map((s) => s.id));
    expect(firstScenario).toBe(SCENARIOS[0]);
    for (const [i, entry] of SCENARIO_CATALOG.entries()) {
      expect(await entry.load()).toBe(SCENARIOS[i]);
      expect([entry.title, entry.summary]).toEqual([SCENARIOS[i].title, SCENARIOS[i].summary]);
    }
  });

  it('says a scenario needs no Lua engine only if no run of it sends a script command', () => {
    const scripted = (argv: readonly string[]) => SCRIPT_COMMANDS.has(argv[0].toLowerCase());
    const without = SCENARIO_CATALOG.filter((e) => !e.usesScripts).map((e) => SCENARIOS.find((s) => s.id === e.id)!);
    expect(without.length).toBeGreaterThan(0);
    for (const scenario of without) {
      for (const variant of scenario.variants) {
        const sim = new Simulation(scenario, { variantId: variant.id });
        for (const choice of parseSchedule(scenario.defaultSchedule, variant.clients.map((c) => c.id), nodeIdsOf(scenario, variant))) sim.apply(choice);
        const random = new Simulation(scenario, { variantId: variant.id, seed: 3 });
        runPolicy(random, randomPolicy(3), 200);
        for (const event of [...sim.allEvents(), ...random.allEvents()]) {
          if (event.kind === 'command') expect(scripted(event.argv), `${scenario.id}/${variant.id}: ${event.argv[0]}`).toBe(false);
        }
      }
    }
  });

  it('a realm without a Lua engine refuses to make one, naming why', async () => {
    vi.resetModules();
    const fresh = await import('../../src/engine/redis/lua-runtime');
    expect(fresh.luaRuntimeInstalled()).toBe(false);
    expect(() => fresh.createInstalledLuaEngine()).toThrow(fresh.LuaRuntimeMissingError);
    vi.resetModules();
  });
});
