import { createContext, useContext, type ReactNode } from 'react';
import { SimStoreProvider } from '../store/context';
import type { SimStore } from '../store/store-types';

/**
 * The page's stores for the parts drawn after a new run's first frame (draw-later.ts): the one
 * for the frame after the first, then the one for the frame after that. Absent (tests, Node): all
 * drawn at once.
 */
export const DrawLaterContext = createContext<readonly SimStore[]>([]);

/** Its children show a newly loaded run `frames` frames after the rest of the page (1 or 2). */
export function DrawnLater({ frames, children }: { frames: 1 | 2; children: ReactNode }) {
  const later = useContext(DrawLaterContext)[frames - 1];
  return later === undefined ? children : <SimStoreProvider store={later}>{children}</SimStoreProvider>;
}
