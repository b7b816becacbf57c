import { advanceMsMax } from '../store/limits';

/** A duration the engine accepts for a clock advance or a stall: a whole number of ms, 1..advanceMsMax. */
export function isValidDurationMs(ms: number): boolean {
  return Number.isSafeInteger(ms) && ms > 0 && ms <= advanceMsMax;
}

/** The millisecond field beside "Advance" and "Pause": bounded like the schedule grammar. */
export function DurationInput(props: { valueMs: number; label: string; disabled?: boolean; onChange: (ms: number) => void }) {
  return (
    <input
      type="number"
      className="input input--ms"
      min={1}
      max={advanceMsMax}
      step={500}
      value={Number.isFinite(props.valueMs) ? props.valueMs : ''}
      aria-label={props.label}
      disabled={props.disabled}
      onChange={(e) => props.onChange(e.currentTarget.valueAsNumber)}
    />
  );
}
