import { createContext, useContext, type ReactNode } from 'react';
import { SimStoreProvider } from '../store/context';
import type { SimStore } from '../store/store-types';

/** The page's store for the parts drawn after a new run's first frame (draw-later.ts); absent (tests, Node): drawn at once. */
export const DrawLaterContext = createContext<SimStore | null>(null);

/** Its children show a newly loaded run one frame after the rest of the page. */
export function DrawnLater({ children }: { children: ReactNode }) {
  const later = useContext(DrawLaterContext);
  return later === null ? children : <SimStoreProvider store={later}>{children}</SimStoreProvider>;
}
