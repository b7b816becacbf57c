import { DurationInput, isValidDurationMs } from './DurationInput';
import { useEffect, useRef, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useSimStore, useSimStoreApi, useT } from '../store/context';
import type { SimState } from '../store/store-types';
import { SPEEDS_STEPS_PER_S } from '../store/limits';
import { selectPlayback } from '../store/selectors';
import { Icon } from './Icon';

const selectExpiry = (s: SimState) => s.nextExpiryAtMs;
const selectCursorLength = (s: SimState) => ({ cursor: s.cursor, length: s.length });
const selectSeed = (s: SimState) => s.seed;
const selectAdvanceDraft = (s: SimState) => s.advanceDraftMs;

/**
 * The virtual clock readout. It changes on every step, so it writes its text through a store
 * subscription (a transient update) instead of re-rendering.
 */
function ClockReadout() {
  const t = useT();
  const store = useSimStoreApi();
  const valueRef = useRef<HTMLSpanElement>(null);
  useEffect(() => {
    const show = (nowMs: number) => {
      if (valueRef.current) valueRef.current.textContent = t('now', { ms: nowMs });
    };
    show(store.getState().nowMs);
    return store.subscribe((state, previous) => {
      if (state.nowMs !== previous.nowMs) show(state.nowMs);
    });
  }, [store, t]);
  return (
    <div className="clock-readout" data-testid="clock" role="timer" aria-label={t('virtualTime')} aria-live="off">
      <Icon name="clock" />
      <span ref={valueRef} className="clock-readout__value" data-testid="clock.value" />
    </div>
  );
}

/** Playback and clock controls: step back/forward, play with speed, scrubber, advance, next expiry, seed. */
export function ClockBar() {
  const t = useT();
  const store = useSimStoreApi();
  const { cursor, length } = useSimStore(useShallow(selectCursorLength));
  const scrubberRef = useRef<HTMLInputElement>(null);
  // The scrubber's spoken value includes the clock: written by subscription like the readout.
  useEffect(() => {
    const describe = (state: SimState) =>
      scrubberRef.current?.setAttribute('aria-valuetext', t('scrubberValue', { cursor: state.cursor, length: state.length, nowMs: state.nowMs }));
    describe(store.getState());
    return store.subscribe(describe);
  }, [store, t]);
  const { playing, speedStepsPerS } = useSimStore(useShallow(selectPlayback));
  const nextExpiryAtMs = useSimStore(selectExpiry);
  const seed = useSimStore(selectSeed);
  // Kept in the store, so the Advance shortcut applies the value typed here.
  const advanceMs = useSimStore(selectAdvanceDraft);
  const setAdvanceMs = (ms: number) => store.getState().setAdvanceDraft(ms);
  const advanceValid = isValidDurationMs(advanceMs);

  return (
    <section className="clock-bar" id="controls" aria-label={t('clock')} data-testid="clock-bar">
      <div className="clock-bar__transport">
        <button
          type="button"
          className="button button--icon"
          aria-label={t('stepBack')}
          aria-keyshortcuts="ArrowLeft"
          title={`${t('stepBack')} (←)`}
          disabled={cursor === 0}
          onClick={() => store.getState().stepBack()}
        >
          <Icon name="back" />
        </button>
        <button
          type="button"
          className="button button--primary button--play"
          aria-keyshortcuts="Space"
          onClick={() => store.getState().togglePlay()}
          data-testid="play"
        >
          <Icon name={playing ? 'pause' : 'play'} />
          <span>{playing ? t('pause') : t('play')}</span>
        </button>
        <button
          type="button"
          className="button button--icon"
          aria-label={t('stepForward')}
          aria-keyshortcuts="ArrowRight"
          title={`${t('stepForward')} (→)`}
          disabled={cursor >= length}
          onClick={() => store.getState().stepForward()}
        >
          <Icon name="forward" />
        </button>
        <label className="field field--inline">
          <span className="field__label">{t('speed')}</span>
          <select className="select" value={speedStepsPerS} onChange={(e) => store.getState().setSpeed(Number(e.currentTarget.value))}>
            {SPEEDS_STEPS_PER_S.map((n) => (
              <option key={n} value={n}>
                {t('speedValue', { n })}
              </option>
            ))}
          </select>
        </label>
      </div>
      <div className="clock-bar__scrub">
        <input
          type="range"
          className="scrubber"
          min={0}
          max={Math.max(length, 0)}
          step={1}
          value={cursor}
          aria-label={t('scrubber')}
          ref={scrubberRef}
          data-testid="scrubber"
          onChange={(e) => store.getState().seek(e.currentTarget.valueAsNumber)}
          onKeyDown={(e) => e.stopPropagation()}
        />
        <span className="clock-bar__position" data-testid="position">
          {t('stepOf', { cursor, length })}
        </span>
      </div>
      <ClockReadout />
      <div className="clock-bar__time">
        <span className="stall-group">
          <DurationInput valueMs={advanceMs} label={t('advanceBy')} onChange={setAdvanceMs} />
          <button type="button" className="button" aria-keyshortcuts="a" disabled={!advanceValid} onClick={() => store.getState().advanceClock(advanceMs)}>
            {t('advanceShort')}
          </button>
        </span>
        <button
          type="button"
          className="button button--expiry"
          aria-keyshortcuts="e"
          disabled={nextExpiryAtMs === null}
          title={nextExpiryAtMs === null ? t('noExpiry') : undefined}
          onClick={() => store.getState().jumpToNextExpiry()}
        >
          <Icon name="expiry" />
          <span className="button__text">{nextExpiryAtMs === null ? t('nextExpiry') : t('nextExpiryAt', { atMs: nextExpiryAtMs + 1 })}</span>
        </button>
        <SeedField key={seed} seed={seed} />
      </div>
    </section>
  );
}

/** The run's seed; keyed by it, so a new seed resets the field without an extra render. */
function SeedField({ seed }: { seed: number }) {
  const t = useT();
  const store = useSimStoreApi();
  const [text, setText] = useState(String(seed));
  const apply = () => {
    const value = Number(text);
    if (/^[0-9]{1,10}$/.test(text) && value <= 0xffff_ffff) store.getState().setSeed(value);
    else setText(String(seed));
  };
  return (
    <label className="field field--inline">
      <span className="field__label">{t('seed')}</span>
      <input
        className="input input--seed"
        inputMode="numeric"
        value={text}
        onChange={(e) => setText(e.currentTarget.value)}
        onBlur={apply}
        onKeyDown={(e) => {
          if (e.key === 'Enter') apply();
        }}
      />
    </label>
  );
}
