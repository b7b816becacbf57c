/** The link slice: a share-link hash in, a run (or a refusal) out. */
import type { StateCreator } from 'zustand/vanilla';
import type { LinkSlice, SimState } from '../createSimStore';
import { linkScenarioId, parseRunLink } from '../run-link';
import type { Runtime } from '../runtime';

export function createLinkSlice(rt: Runtime): StateCreator<SimState, [], [], LinkSlice> {
  return (set, get) => ({
    openLink(hash) {
      // A scenario the page has not loaded yet: load it (a loading state meanwhile), then open the link.
      const named = linkScenarioId(hash);
      if (named !== undefined && rt.library.catalog.some((s) => s.id === named) && rt.library.ready(named) === undefined) {
        rt.whenReady(named, () => get().openLink(hash));
        return;
      }
      const parsed = parseRunLink(hash, rt.library.ready);
      if (parsed.kind === 'none') return;
      if (parsed.kind === 'error') return get().refuseLink(parsed.error);
      if (parsed.kind === 'custom') return void get().ioOpenLink(parsed.hash);
      const result = get().loadRun(parsed.link);
      if (result.ok) {
        set({ linkError: null, persistRun: true });
        get().applyLinkExtras(parsed.link);
      } else if (result.error.reason !== 'not-ready') get().refuseLink(result.error);
    },
    refuseLink(error) {
      // Not saving first: a broken link must not overwrite the reader's saved run.
      set({ persistRun: false });
      get().loadRun({ scenarioId: rt.firstScenario.id });
      set({ linkError: error });
    },
  });
}
