/** Number formatting for the bench's tables. */

export function fmt(value: number | null, digits = 1): string {
  if (value === null) return 'n/a';
  return value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
}

export function fmtRatio(value: number | null): string {
  return value === null ? 'n/a' : `${value.toFixed(2)}x`;
}
