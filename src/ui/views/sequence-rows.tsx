/**
 * The sequence diagram's rows, drawn (React, SVG): a command with its reply, a clock jump, a note
 * on a lifeline, a violation. Commands and violations are focusable marks that jump to their step.
 */
import { memo } from 'react';
import { translator, violationText, type Lang } from '../../i18n';
import { SEQUENCE_GEOMETRY as S, type Columns } from './sequence-layout';
import { SEQUENCE_ROW_HEIGHT, type SequenceRow } from './sequence-model';
import { fitText, textWidth } from './svg-text';
import { JumpMark, partsTspans, type MarkState } from './svg-parts';
import { blockLabel, pointLabel, textOf } from './view-text';

export interface RowProps {
  readonly row: SequenceRow;
  readonly top: number;
  readonly columns: Columns;
  readonly widthPx: number;
  readonly state: MarkState;
  readonly lang: Lang;
  readonly onJump: (step: number) => void;
  readonly idPrefix: string;
}

export const Row = memo(function Row(props: RowProps) {
  const { row } = props;
  switch (row.kind) {
    case 'message':
      return <Message {...props} row={row} />;
    case 'time':
      return <TimeRow {...props} row={row} />;
    case 'note':
      return <Note {...props} row={row} />;
    case 'violation':
      return <ViolationRow {...props} row={row} />;
  }
});

function StepLabel({ step, y }: { step: number; y: number }) {
  return (
    <text className="lsv-seq-step" x={S.marginLeftPx - 14} y={y} textAnchor="end">
      {`#${step + 1}`}
    </text>
  );
}

function Message(props: RowProps & { row: Extract<SequenceRow, { kind: 'message' }> }) {
  const { row, top, columns, state, lang, onJump, idPrefix } = props;
  const t = translator(lang);
  const xClient = columns.xOf(row.clientId);
  const xRedis = columns.xOf(null);
  const dir = xRedis > xClient ? 1 : -1;
  const from = xClient + dir * 8;
  const to = xRedis - dir * 9;
  const span = Math.abs(to - from);
  const violated = row.violationSeqs.length > 0;
  const charsFit = Math.max(4, Math.floor((span - 12) / (S.fontPx * 0.61)));
  const command = textOf(row.command, lang);
  const reply = textOf(row.reply, lang);
  const name = `${t('stepMark', { step: row.step + 1, id: row.clientId, command, reply })}${state === 'future' ? ` ${t('stepMarkFuture')}` : ''}`;
  const mid = (from + to) / 2;
  const y1 = top + 24;
  const y2 = top + 50;
  return (
    <>
    <g aria-hidden="true" data-state={state} className="lsv-message-step">
      <StepLabel step={row.step} y={y1} />
    </g>
    <JumpMark
      className={`lsv-mark lsv-message${violated ? ' lsv-violated' : ''}${row.replyType === 'error' ? ' lsv-error' : ''}`}
      testId={`sequence.message.${row.seq}`}
      step={row.step}
      state={state}
      exposeStep
      name={name}
      onJump={onJump}
    >
      <rect className="lsv-message-hit" x={Math.min(from, to) - 6} y={top + 4} width={span + 12} height={SEQUENCE_ROW_HEIGHT.message - 8} rx={6} />
      {/* The name already says command and reply; the drawn words are its picture. */}
      <text className="lsv-message-label" x={mid} y={y1 - 10} textAnchor="middle" aria-hidden="true">
        {partsTspans(row.command, lang, columns.colorIndex, charsFit)}
      </text>
      <line className="lsv-arrow" x1={from} x2={to} y1={y1} y2={y1} markerEnd={`url(#${idPrefix}-${violated ? 'arrow-danger' : 'arrow'})`} />
      <text className="lsv-reply-label" x={mid} y={y2 - 10} textAnchor="middle" aria-hidden="true">
        {/* A leading space (not drawn) keeps command and reply separate words for tools that read the drawn text. */}
        {' '}
        {partsTspans(row.reply, lang, columns.colorIndex, charsFit)}
      </text>
      <line className="lsv-arrow lsv-arrow-reply" x1={to} x2={from} y1={y2} y2={y2} markerEnd={`url(#${idPrefix}-arrow-open)`} />
    </JumpMark>
    </>
  );
}

function TimeRow(props: RowProps & { row: Extract<SequenceRow, { kind: 'time' }> }) {
  const { row, top, widthPx, lang, state } = props;
  const t = translator(lang);
  const y = top + SEQUENCE_ROW_HEIGHT.time / 2;
  const label = t('clockJump', { ms: row.toMs });
  const w = textWidth(label, 12, true) + 18;
  const note =
    row.reason === 'advance'
      ? t('clockAdvance', { ms: row.toMs - row.fromMs })
      : row.reason === 'wait' && row.clientId !== null
        ? `${t('wakes', { id: row.clientId })} · ${t('clockAdvance', { ms: row.toMs - row.fromMs })}`
        : '';
  return (
    <g className="lsv-time-row" data-state={state} aria-hidden="true">
      <line className="lsv-time-line" x1={12} x2={widthPx - 12} y1={y} y2={y} />
      <rect className="lsv-time-pill" x={12} y={y - 10} width={w} height={20} rx={10} />
      <text className="lsv-time-label" x={12 + w / 2} y={y} textAnchor="middle">
        {label}
      </text>
      {note && (
        <text className="lsv-time-note" x={widthPx - 16} y={y - 9} textAnchor="end">
          {note}
        </text>
      )}
    </g>
  );
}

function Note(props: RowProps & { row: Extract<SequenceRow, { kind: 'note' }> }) {
  const { row, top, columns, lang, state } = props;
  const t = translator(lang);
  const x = columns.xOf(row.clientId);
  const text =
    row.note === 'block' && row.block
      ? `${blockLabel(row.block.reason, row.block.durationMs, lang)} → t=${row.block.untilMs}`
      : row.note === 'enter'
        ? t('enter')
        : row.note === 'leave'
          ? t('leave')
          : `${{ end: '■', crash: '✕', 'give-up': '⊘', write: '✎', mark: '+' }[row.note as 'end'] ?? ''} ${pointLabel(row.note as 'end', lang)}${
              row.detail.length > 0 ? ` ${textOf(row.detail, lang)}` : ''
            }`;
  const label = fitText(text, columns.spacing - 24, 11.5, false);
  const w = textWidth(label, 11.5, false) + 16;
  // Notes sit beside the lifeline, on the side away from Redis, so they never cover an arrow.
  const awayFromRedis = columns.xOf(null) > x ? -1 : 1;
  const left = awayFromRedis < 0 ? x - 12 - w : x + 12;
  const y = top + SEQUENCE_ROW_HEIGHT.note / 2;
  return (
    <g className={`lsv-note lsv-note-${row.note}${row.rejected ? ' lsv-rejected' : ''}`} data-state={state} aria-hidden="true">
      <rect x={left} y={y - 10} width={w} height={20} rx={4} />
      <text x={left + 8} y={y}>
        {label}
      </text>
    </g>
  );
}

function ViolationRow(props: RowProps & { row: Extract<SequenceRow, { kind: 'violation' }> }) {
  const { row, top, columns, widthPx, state, lang, onJump } = props;
  const t = translator(lang);
  const message = violationText(row.violation, row.message, lang);
  const label = `⚠ ${message}`;
  const w = Math.min(widthPx - S.marginLeftPx - 16, textWidth(label, 12.5, false) + 24);
  const xs = row.clients.map((id) => columns.xOf(id));
  const centre = xs.length > 0 ? (Math.min(...xs, columns.xOf(null)) + Math.max(...xs, columns.xOf(null))) / 2 : widthPx / 2;
  const left = Math.max(S.marginLeftPx, Math.min(centre - w / 2, widthPx - w - 8));
  const y = top + SEQUENCE_ROW_HEIGHT.violation / 2;
  const name = t('violationMark', { step: row.step + 1, message });
  return (
    <JumpMark className="lsv-mark lsv-violation" testId={`sequence.violation.${row.seq}`} step={row.step} state={state} name={name} onJump={onJump}>
      <rect x={left} y={y - 12} width={w} height={24} rx={5} />
      <text x={left + 12} y={y}>
        {fitText(label, w - 20, 12.5, false)}
      </text>
    </JumpMark>
  );
}
