/**
 * Small helpers shared by the SVG views: client colours and text that fits a width without
 * measuring (measuring would need layout on every render; an estimate is stable and cheap).
 */

/** Okabe-Ito, minus black and yellow (too light on white): safe for the common colour-blindnesses. */
const CLIENT_FALLBACK_COLORS = ['#0072B2', '#D55E00', '#009E73', '#CC79A7', '#E69F00', '#56B4E9'] as const;

function slot(index: number): number {
  const n = CLIENT_FALLBACK_COLORS.length;
  return ((index % n) + n) % n;
}

/**
 * A client's colour by its position in the run: the theme's `--client-<i>` (theme.css), else the
 * views' own palette (exported files keep it once styles are inlined).
 */
export function clientColor(clientId: string | null, index: number): string {
  if (clientId === null) return 'var(--lsv-muted, #6b7280)';
  const i = slot(index);
  return `var(--client-${i}, var(--lsv-client-${i}, ${CLIENT_FALLBACK_COLORS[i]}))`;
}

/** Text on a client-coloured badge (black on the light Okabe-Ito colours, white on blue). */
export function clientInkColor(index: number): string {
  const i = slot(index);
  return `var(--client-${i}-ink, ${i === 0 ? '#ffffff' : '#000000'})`;
}

/** The client's colour, darkened (light theme) or lightened (dark theme) enough for small text. */
export function clientTextColor(clientId: string | null, index: number): string {
  if (clientId === null) return 'var(--lsv-muted, #6b7280)';
  const i = slot(index);
  return `var(--lsv-client-${i}-text, ${CLIENT_FALLBACK_COLORS[i]})`;
}

/** The letter a client's badge shows. */
export function badgeLetter(clientId: string): string {
  return clientId.slice(0, 2);
}

const WIDE = /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/;

/** Estimated width of `text` at `fontPx`: monospace ~0.6 em a character, proportional ~0.56 em, CJK 1 em. */
export function textWidth(text: string, fontPx: number, mono: boolean): number {
  const narrow = mono ? 0.61 : 0.56;
  let em = 0;
  for (const ch of text) em += WIDE.test(ch) ? 1 : narrow;
  return em * fontPx;
}

/** `text`, cut with an ellipsis so it fits `widthPx`; empty when not even one character fits. */
export function fitText(text: string, widthPx: number, fontPx: number, mono: boolean): string {
  if (textWidth(text, fontPx, mono) <= widthPx) return text;
  const chars = [...text];
  let lo = 0;
  let hi = chars.length;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (textWidth(`${chars.slice(0, mid).join('')}…`, fontPx, mono) <= widthPx) lo = mid;
    else hi = mid - 1;
  }
  return lo === 0 ? '' : `${chars.slice(0, lo).join('')}…`;
}
