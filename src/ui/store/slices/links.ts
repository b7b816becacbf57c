/** The link slice: a share-link hash in, a run (or a refusal) out. */
import type { LinkPort, SliceStore } from '../ports';
import { linkScenarioId, parseRunLink } from '../run-link';
import type { LinkError } from '../types';

export interface LinkSlice {
  /**
   * Opens a share-link hash (typed into the address bar, pasted): loads its run, or refuses it.
   * An empty hash changes nothing.
   */
  openLink(hash: string): void;
  /** Shows why a link was refused, loads the default run, and stops saving until the user acts. */
  refuseLink(error: LinkError): void;
}

export function createLinkSlice(port: LinkPort): (store: SliceStore<LinkSlice>) => LinkSlice {
  return ({ get }) => ({
    openLink(hash) {
      // A scenario the page has not loaded yet: load it (a loading state meanwhile), then open the link.
      const named = linkScenarioId(hash);
      if (named !== undefined && port.needsLoading(named)) {
        port.whenReady(named, () => get().openLink(hash));
        return;
      }
      const parsed = parseRunLink(hash, port.findScenario);
      if (parsed.kind === 'none') return;
      if (parsed.kind === 'error') return get().refuseLink(parsed.error);
      if (parsed.kind === 'custom') return port.openDefinitionLink(parsed.hash);
      // A schedule that does not fit is known once the run is replayed (in the engine worker, later).
      port.loadRun(parsed.link, (result) => {
        if (result.ok) {
          port.showLinkError(null);
          port.setPersistRun(true);
          port.applyLinkExtras(parsed.link);
        } else if (result.error.reason !== 'not-ready' && result.error.reason !== 'stopped') get().refuseLink(result.error);
      });
    },
    refuseLink(error) {
      // Not saving first: a broken link must not overwrite the reader's saved run.
      port.setPersistRun(false);
      port.loadRun({ scenarioId: port.firstScenarioId() });
      port.showLinkError(error);
    },
  });
}
