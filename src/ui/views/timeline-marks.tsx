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
  return (
    <g>
      {marks.map((m) => {
        return (
          <Chip
            key={m.seq}
            mark={m}
            x={layout.xOfSeq(m.seq)}
            maxWidth={chipMaxWidth(layout, m.step)}
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


export function ClockMarks(props: { clocks: readonly ClockMark[]; layout: TimelineLayout; cursorStep: number; lang: Lang; onJump: (step: number) => void }) {
  const G = useG();
  const { clocks, layout, cursorStep, lang, onJump } = props;
  const t = translator(lang);
  return (
    <g>
      {clocks.map((c) => {
        const x = layout.xOfSeq(c.seq);
        const label = t('clockAdvance', { ms: c.toMs - c.fromMs });
        const w = textWidth(label, TIMELINE_FONT_MIN_PX, true) + 12;
        const name = t('clockMark', { step: c.step + 1, ms: c.toMs - c.fromMs, to: c.toMs });
        return (
          <JumpMark
            key={c.seq}
            className="lsv-mark lsv-clock"
            testId={`timeline.clock.${c.seq}`}
            step={c.step}
            state={markState(c.step, cursorStep)}
            name={name}
            onJump={onJump}
          >
            <rect x={x - w / 2} y={G.flagY} width={w} height={G.flagH} rx={G.flagH / 2} />
            <text x={x} y={G.flagY + G.flagH / 2} textAnchor="middle">
              {label}
            </text>
          </JumpMark>
        );
      })}
    </g>
  );
}

export function ViolationFlags(props: {
  violations: readonly ViolationMarker[];
  layout: TimelineLayout;
  cursorStep: number;
  lang: Lang;
  onJump: (step: number) => void;
}) {
  const G = useG();
  const { violations, layout, cursorStep, lang, onJump } = props;
  const t = translator(lang);
  return (
    <g>
      {violations.map((v) => {
        const x = layout.xOfSeq(v.causeSeq);
        const message = violationText(v.kind, v.message, lang);
        // Long messages are cut on the flag; the accessible name and the tooltip keep all of it.
        const label = fitText(`⚠ ${message}`, VIOLATION_FLAG_MAX_PX - 16, 12, false);
        const w = textWidth(label, 12, false) + 16;
        // Centred on its cause, but kept inside the drawing.
        const left = Math.max(0, Math.min(x - w / 2, layout.widthPx - w));
        const name = t('violationMark', { step: v.step + 1, message });
        return (
          <JumpMark
            key={v.seq}
            className="lsv-mark lsv-violation"
            testId={`timeline.violation.${v.seq}`}
            step={v.step}
            state={markState(v.step, cursorStep)}
            name={name}
            onJump={onJump}
          >
            <rect x={left} y={G.flagY} width={w} height={G.flagH} rx={4} />
            <text x={left + 8} y={G.flagY + G.flagH / 2}>
              {label}
            </text>
          </JumpMark>
        );
      })}
    </g>
  );
}

