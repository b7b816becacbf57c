/** The timeline's buttons: command chips, clock advances and violation flags (each jumps to its step). */
import { memo } from 'react';
import { translator, violationText, type Lang } from '../../i18n';
import { textOf } from './view-text';
import { clientColor, fitText, textWidth } from './svg-text';
import { JumpMark, markState, partsTspans, partsVisibleText } from './svg-parts';
import { TIMELINE_FONT_MIN_PX, useGeometry as useG, type TimelineGeometry } from './timeline-geometry';

/** A violation flag is at most this wide. */
const VIOLATION_FLAG_MAX_PX = 300;
import type { TimelineLayout } from './timeline-layout';
import type { ClockMark, CommandMark, ViolationMarker } from './timeline-types';

interface MarksProps {
  readonly marks: readonly CommandMark[];
  readonly layout: TimelineLayout;
  readonly y: number;
  readonly cursorStep: number;
  readonly lang: Lang;
  readonly onJump: (step: number) => void;
  readonly colorIndex: ReadonlyMap<string, number>;
}

export function CommandMarks(props: MarksProps) {
  const G = useG();
  const { marks, layout, y, cursorStep, lang, onJump, colorIndex } = props;
  const widths = chipWidthsMax(marks, layout);
  return (
    <g>
      {marks.map((m) => {
        return (
          <Chip
            key={m.seq}
            mark={m}
            x={layout.xOfSeq(m.seq)}
            maxWidth={widths.get(m.seq) ?? chipMaxWidth(layout, m.step)}
            y={y + G.chipDy}
            state={markState(m.step, cursorStep)}
            lang={lang}
            onJump={onJump}
            colorIndex={colorIndex}
          />
        );
      })}
    </g>
  );
}

/**
 * What a chip shows and how wide it is: two lines (verb and key, then the reply), or one
 * (compact) where the key is left out when short of room.
 */
export function chipFit(mark: CommandMark, maxWidth: number, G: TimelineGeometry, lang: Lang): { warn: string; shortHead: string; w: number } {
  const replyText = `→ ${textOf(mark.reply, lang)}`;
  const warn = mark.violationSeqs.length > 0 ? '⚠ ' : '';
  const fullHead = `${mark.verb}${mark.key !== null ? ` ${mark.key}` : ''}`;
  const oneLine = G.chipLines === 1;
  const shortHead = oneLine && textWidth(`${warn}${fullHead} ${replyText}`, G.chipFontPx, true) + 14 > maxWidth ? mark.verb : fullHead;
  const natural = oneLine
    ? textWidth(`${warn}${shortHead} ${replyText}`, G.chipFontPx, true) + 14
    : Math.max(textWidth(`${warn}${shortHead}`, G.chipFontPx, true), textWidth(replyText, G.chipFontPx - 0.5, true)) + 16;
  return { warn, shortHead, w: Math.min(maxWidth, natural) };
}

/**
 * The widest each chip of a row may be: its step's slot, and no closer to its neighbours than
 * halfway to its neighbours, so two never meet (several commands of one client in one step share
 * the slot), less a margin.
 */
export function chipWidthsMax(marks: readonly CommandMark[], layout: TimelineLayout): Map<number, number> {
  const xs = marks.map((m) => layout.xOfSeq(m.seq));
  const widths = new Map<number, number>();
  marks.forEach((m, i) => {
    const before = i > 0 ? xs[i] - xs[i - 1] : Number.POSITIVE_INFINITY;
    const after = i + 1 < marks.length ? xs[i + 1] - xs[i] : Number.POSITIVE_INFINITY;
    widths.set(m.seq, Math.max(12, Math.min(chipMaxWidth(layout, m.step), Math.min(before, after) - 6)));
  });
  return widths;
}

/** The widest a chip may be: its step's slot, less a margin. */
export function chipMaxWidth(layout: TimelineLayout, step: number): number {
  const slot = layout.slot(step);
  return slot ? slot.x1 - slot.x0 - 6 : 100;
}

interface ChipProps {
  readonly mark: CommandMark;
  readonly x: number;
  readonly maxWidth: number;
  readonly y: number;
  readonly state: 'past' | 'current' | 'future';
  readonly lang: Lang;
  readonly onJump: (step: number) => void;
  readonly colorIndex: ReadonlyMap<string, number>;
}

/** One command: verb and key on top, the reply below; a button that jumps to just after it. */
const Chip = memo(function Chip(props: ChipProps) {
  const G = useG();
  const { mark, x, maxWidth, y, state, lang, onJump, colorIndex } = props;
  const t = translator(lang);
  const index = colorIndex.get(mark.clientId) ?? 0;
  const violated = mark.violationSeqs.length > 0;
  const { warn, shortHead, w } = chipFit(mark, maxWidth, G, lang);
  const charW = (G.chipFontPx - 0.5) * 0.61;
  const oneLine = G.chipLines === 1;
  const warnW = textWidth(warn, G.chipFontPx, true);
  const head = fitText(shortHead, w - 12 - warnW, G.chipFontPx, true);
  const headW = warnW + textWidth(head, G.chipFontPx, true);
  const replyX = oneLine ? x - w / 2 + 7 + headW + charW : x - w / 2 + 7;
  const charsFit = Math.max(3, Math.floor((x + w / 2 - 7 - replyX) / charW));
  const h = G.chipH;
  // The name says what the chip shows (so speech matches sight); the title has the whole command.
  const name = t('stepMark', { step: mark.step + 1, id: mark.clientId, command: head, reply: partsVisibleText(mark.reply, lang, charsFit - 2) });
  const description = t('stepMark', { step: mark.step + 1, id: mark.clientId, command: textOf(mark.command, lang), reply: textOf(mark.reply, lang) });
  return (
    <JumpMark
      className={`lsv-mark lsv-chip${violated ? ' lsv-violated' : ''}${mark.replyType === 'error' ? ' lsv-error' : ''}`}
      testId={`timeline.mark.${mark.seq}`}
      step={mark.step}
      state={state}
      exposeStep
      name={state === 'future' ? `${name} ${t('stepMarkFuture')}` : name}
      title={description}
      onJump={onJump}
    >
      <rect className="lsv-chip-box" x={x - w / 2} y={y} width={w} height={h} rx={6} style={{ stroke: clientColor(mark.clientId, index) }} />
      <text className="lsv-chip-head" x={x - w / 2 + 7} y={oneLine ? y + h / 2 : y + 11.5}>
        {warn && <tspan aria-hidden="true">{warn}</tspan>}
        {head}
      </text>
      <text className="lsv-chip-reply" x={replyX} y={oneLine ? y + h / 2 : y + 25}>
        <tspan>{'→ '}</tspan>
        {partsTspans(mark.reply, lang, colorIndex, charsFit - 2)}
      </text>
    </JumpMark>
  );
});


/**
 * A cut violation label ends on a whole word ("which has…", not "which has n…"), so every word
 * drawn is a word of the mark's name (axe: label-content-name-mismatch).
 */
function endOnWord(label: string): string {
  if (!label.endsWith('…')) return label;
  const cut = label.slice(0, -1);
  const at = cut.search(/\s\S*$/);
  return at > 0 ? `${cut.slice(0, at)}…` : label;
}

/** One mark on the flag row (clock moves and violations), placed so none covers another. */
interface FlagPlace {
  readonly left: number;
  readonly width: number;
  readonly label: string;
}

/** The narrowest a flag is drawn: room for "⚠" or "+…". */
const FLAG_WIDTH_MIN_PX = 26;

/**
 * Places the flag row left to right: a clock move centred on its event, a violation starting at
 * its cause. A mark never covers the next one: it is pushed right of the one before and cut
 * (words shortened, "…") to end before the next one's place. Names and tooltips keep all the words.
 */
function placeFlags(items: readonly { anchor: number; text: string; mono: boolean; centred: boolean }[], widthPx: number): FlagPlace[] {
  const natural = items.map((item) => textWidth(item.text, TIMELINE_FONT_MIN_PX, item.mono) + 16);
  const wanted = items.map((item, i) => (item.centred ? item.anchor - natural[i] / 2 : item.anchor - 12));
  const places: FlagPlace[] = [];
  let taken = Number.NEGATIVE_INFINITY;
  items.forEach((item, i) => {
    const left = Math.max(wanted[i], taken + 4, 0);
    const limit = i + 1 < items.length ? Math.max(wanted[i + 1], left + FLAG_WIDTH_MIN_PX + 4) - 4 : widthPx;
    const width = Math.max(FLAG_WIDTH_MIN_PX, Math.min(natural[i], limit - left));
    const label = width >= natural[i] ? item.text : fitText(item.text, width - 16, TIMELINE_FONT_MIN_PX, item.mono) || [...item.text][0];
    places.push({ left, width, label });
    taken = left + width;
  });
  return places;
}

/** The flag row: clock moves ("+4000 ms") and violations ("⚠ A deleted B's lock"), each a button to its step. */
export function FlagRow(props: {
  clocks: readonly ClockMark[];
  violations: readonly ViolationMarker[];
  layout: TimelineLayout;
  cursorStep: number;
  lang: Lang;
  onJump: (step: number) => void;
}) {
  const G = useG();
  const { clocks, violations, layout, cursorStep, lang, onJump } = props;
  const t = translator(lang);
  const items = [
    ...clocks.map((c) => ({ clock: c, violation: null, anchor: layout.xOfSeq(c.seq), text: t('clockAdvance', { ms: c.toMs - c.fromMs }), mono: true, centred: true })),
    ...violations.map((v) => {
      const message = violationText(v.kind, v.message, lang);
      // Long messages are cut on the flag; the accessible name and the tooltip keep all of it.
      const text = fitText(`⚠ ${message}`, VIOLATION_FLAG_MAX_PX - 16, TIMELINE_FONT_MIN_PX, false);
      return { clock: null, violation: { v, message }, anchor: layout.xOfSeq(v.causeSeq), text, mono: false, centred: false };
    }),
  ].sort((a, b) => a.anchor - b.anchor);
  const places = placeFlags(items, layout.widthPx);
  return (
    <g>
      {items.map((item, i) => {
        const { left, width, label } = places[i];
        if (item.clock) {
          const c = item.clock;
          return (
            <JumpMark
              key={`c${c.seq}`}
              className="lsv-mark lsv-clock"
              testId={`timeline.clock.${c.seq}`}
              step={c.step}
              state={markState(c.step, cursorStep)}
              name={t('clockMark', { step: c.step + 1, ms: c.toMs - c.fromMs, to: c.toMs })}
              onJump={onJump}
            >
              <rect x={left} y={G.flagY} width={width} height={G.flagH} rx={G.flagH / 2} />
              <text x={left + width / 2} y={G.flagY + G.flagH / 2} textAnchor="middle">
                {label}
              </text>
            </JumpMark>
          );
        }
        const { v, message } = item.violation!;
        return (
          <JumpMark
            key={`v${v.seq}`}
            className="lsv-mark lsv-violation"
            testId={`timeline.violation.${v.seq}`}
            step={v.step}
            state={markState(v.step, cursorStep)}
            name={t('violationMark', { step: v.step + 1, message })}
            onJump={onJump}
          >
            <rect x={left} y={G.flagY} width={width} height={G.flagH} rx={4} />
            <text x={left + 8} y={G.flagY + G.flagH / 2}>
              {endOnWord(label)}
            </text>
          </JumpMark>
        );
      })}
    </g>
  );
}
