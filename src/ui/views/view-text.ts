/** Words the timeline and the sequence diagram compose from the catalog (src/i18n). */
import { formatDuration, translator, type Lang } from '../../i18n';
import type { BlockReason, PointKind } from './timeline-types';
import { partsText, type TextPart } from './text-parts';

const BLOCK_KEYS = {
  work: 'blockWork',
  sleep: 'blockSleep',
  retry: 'blockRetry',
  hang: 'blockHang',
  reply: 'blockReply',
  busy: 'blockBusy',
  message: 'blockMessage',
  network: 'blockNetwork',
  await: 'blockAwait',
  pop: 'blockPop',
  stall: 'blockStall',
} as const;

/** "process paused 6 s", "业务处理 2 秒"; a wait with no end (a hang) has no duration. */
export function blockLabel(reason: BlockReason, durationMs: number | null, lang: Lang): string {
  const what = translator(lang)(BLOCK_KEYS[reason]);
  return durationMs === null ? what : `${what} ${formatDuration(durationMs, lang)}`;
}

const POINT_KEYS = {
  enter: 'pointEnter',
  leave: 'pointLeave',
  end: 'pointEnd',
  crash: 'pointCrash',
  'give-up': 'pointGiveUp',
  write: 'pointWrite',
  mark: 'pointMark',
  drop: 'pointDrop',
} as const;

export function pointLabel(kind: PointKind, lang: Lang): string {
  return translator(lang)(POINT_KEYS[kind]);
}

/** Parts as plain text in `lang` (accessible names, titles, export). */
export function textOf(parts: readonly TextPart[], lang: Lang): string {
  const t = translator(lang);
  return partsText(
    parts,
    (owner) => t('tokenNamed', { id: owner }),
    () => t('script'),
  );
}
