import { memo } from 'react';

/** Palette slots (Okabe-Ito, colour-blind safe); the letter keeps colour from being the only signal. */
const clientPaletteSize = 6;

export function clientClass(index: number): string {
  return `client-${index % clientPaletteSize}`;
}

/** A client's letter on its colour. The letter is text, so it reads without colour too. */
export const ClientBadge = memo(function ClientBadge({ id, index, size = 'normal' }: { id: string; index: number; size?: 'normal' | 'small' }) {
  return (
    <span className={`client-badge ${clientClass(index)} client-badge--${size}`} aria-hidden="true">
      {id}
    </span>
  );
});
