/**
 * An explore service whose code loads on the first search: the explorer is not first-screen work,
 * so neither its worker nor the engine's search code is in the page's first chunk.
 */
import type { ExploreService } from './explore-protocol';

export function deferredExploreService(load: () => Promise<ExploreService>): ExploreService {
  let service: ExploreService | null = null;
  let loading: Promise<ExploreService> | null = null;
  let disposed = false;
  const get = (): Promise<ExploreService> => {
    loading ??= load().then((loaded) => {
      if (disposed) loaded.dispose();
      service = loaded;
      return loaded;
    });
    return loading;
  };
  return {
    start(request, handlers) {
      if (service) return service.start(request, handlers);
      get().then(
        (loaded) => {
          if (!disposed) loaded.start(request, handlers);
        },
        (error: unknown) => handlers.onError(error instanceof Error ? error.message : String(error)),
      );
    },
    cancel(id) {
      if (service) service.cancel(id);
      else void get().then((loaded) => loaded.cancel(id));
    },
    dispose() {
      disposed = true;
      service?.dispose();
    },
  };
}
