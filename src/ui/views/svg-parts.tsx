import type { KeyboardEvent, ReactNode } from 'react';
import { translator, type Lang } from '../../i18n';
import { badgeLetter, clientColor, clientInkColor, clientTextColor } from './svg-text';
import type { TextPart } from './text-parts';

export type MarkState = 'past' | 'current' | 'future';

/** Where a step stands against the cursor: applied before the last step, the last step, or ahead. */
export function markState(step: number, cursorStep: number): MarkState {
  return step < cursorStep - 1 ? 'past' : step === cursorStep - 1 ? 'current' : 'future';
}

/**
 * A focusable SVG "button" for one step of the run: click, Enter or Space jumps to just after
 * that step. Its accessible name is `name`; the tooltip is `title` (default: the name).
 */
export function JumpMark(props: {
  readonly testId: string;
  readonly className: string;
  readonly step: number;
  readonly state: MarkState;
  readonly name: string;
  readonly title?: string;
  /** Also expose the step index as data-step (command marks). */
  readonly exposeStep?: boolean;
  readonly onJump: (step: number) => void;
  readonly children: ReactNode;
}) {
  const { testId, className, step, state, name, title, exposeStep, onJump, children } = props;
  const jump = () => onJump(step + 1);
  return (
    <g
      className={className}
      data-testid={testId}
      data-state={state}
      data-step={exposeStep ? step : undefined}
      role="button"
      tabIndex={0}
      aria-label={name}
      onClick={jump}
      onKeyDown={(e) => activateOnKey(e, jump)}
    >
      <title>{title ?? name}</title>
      {children}
    </g>
  );
}

/** Activates a focused SVG "button" with Enter or Space, like a real button. */
function activateOnKey(event: KeyboardEvent<SVGElement>, action: () => void): void {
  if (event.key === 'Enter' || event.key === ' ') {
    event.preventDefault();
    event.stopPropagation();
    action();
  }
}

/** Text parts as <tspan>s: a token in its owner's colour and by name, a script as a placeholder. */
/** The text partsTspans shows for the same parts and room: accessible names must say what is seen. */
export function partsVisibleText(parts: readonly TextPart[], lang: Lang, maxChars: number): string {
  const t = translator(lang);
  let out = '';
  let left = maxChars;
  for (const part of parts) {
    if (left <= 0) break;
    let text = typeof part === 'string' ? part : 'owner' in part ? t('tokenNamed', { id: part.owner }) : t('script');
    if ([...text].length > left) text = `${[...text].slice(0, Math.max(0, left - 1)).join('')}…`;
    left -= [...text].length;
    out += text;
  }
  return out;
}

export function partsTspans(parts: readonly TextPart[], lang: Lang, colorIndex: ReadonlyMap<string, number>, maxChars: number): ReactNode[] {
  const t = translator(lang);
  const out: ReactNode[] = [];
  let left = maxChars;
  parts.forEach((part, i) => {
    if (left <= 0) return;
    let text: string;
    let style: { fill: string } | undefined;
    let className: string | undefined;
    if (typeof part === 'string') text = part;
    else if ('owner' in part) {
      text = t('tokenNamed', { id: part.owner });
      style = { fill: clientTextColor(part.owner, colorIndex.get(part.owner) ?? 0) };
      className = 'lsv-token';
    } else {
      text = t('script');
      className = 'lsv-script';
    }
    if ([...text].length > left) text = `${[...text].slice(0, Math.max(0, left - 1)).join('')}…`;
    left -= [...text].length;
    out.push(
      <tspan key={i} className={className} style={style}>
        {text}
      </tspan>,
    );
  });
  return out;
}


/** A badge's letter is never smaller than this (presentation mode at 1080p makes it 18 px). */
const BADGE_FONT_MIN_PX = 12;

/** A client's letter in a circle of its colour: colour is never the only sign of who it is. */
export function Badge({ x, y, r, id, index, title }: { x: number; y: number; r: number; id: string; index: number; title?: string }) {
  return (
    <g className="lsv-badge">
      {title && <title>{title}</title>}
      <circle cx={x} cy={y} r={r} style={{ fill: clientColor(id, index) }} />
      <text x={x} y={y} textAnchor="middle" style={{ fontSize: Math.max(r * 1.15, BADGE_FONT_MIN_PX), fill: clientInkColor(index) }}>
        {badgeLetter(id)}
      </text>
    </g>
  );
}
