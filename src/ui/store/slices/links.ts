/** The link slice: a share-link hash in, a run (or a refusal) out. */
import type { StateCreator } from 'zustand/vanilla';
import type { LinkSlice, SimState } from '../createSimStore';
import { parseRunLink } from '../run-link';
import type { Runtime } from '../runtime';

export function createLinkSlice(rt: Runtime): StateCreator<SimState, [], [], LinkSlice> {
  return (set, get) => ({
    openLink(hash) {
      const parsed = parseRunLink(hash, rt.scenarios);
      if (parsed.kind === 'none') return;
      if (parsed.kind === 'error') return get().refuseLink(parsed.error);
      if (parsed.kind === 'custom') return void get().ioOpenLink(parsed.hash);
      const result = get().loadRun(parsed.link);
      if (result.ok) {
        set({ linkError: null, persistRun: true });
        get().applyLinkExtras(parsed.link);
      }
      else get().refuseLink(result.error);
    },
    refuseLink(error) {
      // Not saving first: a broken link must not overwrite the reader's saved run.
      set({ persistRun: false });
      get().loadRun({ scenarioId: rt.scenarios[0].id });
      set({ linkError: error });
    },
  });
}
