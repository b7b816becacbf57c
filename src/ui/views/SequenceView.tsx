/**
 * The interactive sequence diagram: scrolls vertically, follows the cursor, and draws only the
 * rows near the viewport (the SVG itself is sequence-svg.tsx).
 */
import { memo, useCallback, useEffect, useId, useLayoutEffect, useMemo, useRef, useState, type Ref } from 'react';
import { translator } from '../../i18n';
import { SEQUENCE_GEOMETRY as S, sequenceWidth } from './sequence-layout';
import { buildSequenceModel, sequenceCursorY } from './sequence-model';
import { SequenceSvg, type Window } from './sequence-svg';
import { TimelineSource, useTimelineModel } from './timeline-source';
import type { RunViewProps } from './types';
import { useViewScale } from './use-view-scale';

/** Rows are drawn from this far above to this far below the viewport, in steps of CULL_STEP_PX. */
const CULL_MARGIN_PX = 500;
const CULL_STEP_PX = 250;

export interface SequenceViewProps extends RunViewProps {
  readonly svgRef?: Ref<SVGSVGElement>;
}

/**
 * The run as a whiteboard sequence diagram: a lifeline per client and one for Redis, an arrow to
 * Redis for each command and one back with the reply, notes for the critical section and waits,
 * the clock's jumps as separators. Scrolls vertically; draws only rows near the viewport.
 */
export const SequenceView = memo(function SequenceView(props: SequenceViewProps) {
  const { events, eventCount, generation, clientIds, tokenOwners, cursorStep, nowMs, lang, onJump, svgRef } = props;
  const idPrefix = `lsq${useId().replace(/[^A-Za-z0-9_-]/g, '')}`;
  const scale = useViewScale();
  const scrollRef = useRef<HTMLDivElement>(null);
  const stickyRef = useRef<SVGGElement>(null);
  const [viewportPx, setViewportPx] = useState(1000);
  const [window, setWindow] = useState<Window>([0, 900 + CULL_MARGIN_PX]);

  // The log grows in place within a generation: its count and generation say it changed.
  // eslint-disable-next-line react-hooks/exhaustive-deps -- generation is what the feed says; it is not read inside
  const model = useMemo(() => buildSequenceModel(events, tokenOwners, eventCount), [events, eventCount, generation, tokenOwners]);
  const [source] = useState(() => new TimelineSource());
  const timeline = useTimelineModel(source, events, eventCount, generation, clientIds, tokenOwners);
  const widthPx = sequenceWidth(viewportPx / scale - 2, timeline.clientIds.length);

  const updateWindow = useCallback(() => {
    const el = scrollRef.current;
    if (!el) return;
    const top = el.scrollTop / scale;
    stickyRef.current?.setAttribute('transform', `translate(0 ${top})`);
    const height = el.clientHeight / scale || 600;
    const y0 = Math.max(0, Math.floor((top - CULL_MARGIN_PX) / CULL_STEP_PX) * CULL_STEP_PX);
    const y1 = Math.ceil((top + height + CULL_MARGIN_PX) / CULL_STEP_PX) * CULL_STEP_PX;
    setWindow((w) => (w[0] === y0 && w[1] === y1 ? w : [y0, y1]));
  }, [scale]);

  useLayoutEffect(() => {
    const el = scrollRef.current;
    if (!el) return;
    const measure = () => {
      const width = Math.round(el.clientWidth / 8) * 8;
      if (width > 0) setViewportPx(width);
      updateWindow();
    };
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, [updateWindow]);

  useEffect(() => {
    const el = scrollRef.current;
    if (!el) return;
    const y = (S.headerH + sequenceCursorY(model, cursorStep)) * scale;
    const from = el.scrollTop + (S.headerH + 16) * scale;
    const to = el.scrollTop + el.clientHeight - 24 * scale;
    if (y < from || y > to) {
      el.scrollTop = Math.max(0, y - S.headerH * scale - (el.clientHeight - S.headerH * scale) * 0.6);
      updateWindow();
    }
  }, [cursorStep, model, scale, updateWindow]);

  const t = translator(lang);
  return (
    <div className="lsv-view lsv-sequence" data-testid="sequence" role="region" aria-label={t('sequence')}>
      <div className="lsv-scroll lsv-scroll-y" ref={scrollRef} onScroll={updateWindow}>
        <SequenceSvg
          model={model}
          timeline={timeline}
          clientIds={timeline.clientIds}
          widthPx={widthPx}
          cursorStep={cursorStep}
          nowMs={nowMs}
          lang={lang}
          onJump={onJump}
          window={window}
          idPrefix={idPrefix}
          scale={scale}
          stickyRef={stickyRef}
          svgRef={svgRef}
        />
      </div>
    </div>
  );
});
