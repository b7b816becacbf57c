import { useEffect, useState } from 'react';
import { useSimStore, useSimStoreApi, useT } from '../store/context';
import type { SimState } from '../store/store-types';
import { sessionBusyAfterMs } from '../store/worker-session-host';

const selectSessionBusy = (s: SimState) => s.sessionBusy;

/** How often the elapsed time is redrawn: wall-clock display only, never the simulation's time. */
const elapsedRedrawMs = 200;

/**
 * Shown while the engine worker has been busy for a while (a heavy script, a long replay): how
 * long so far, and Stop, which ends the worker and keeps the run as it was before that request.
 * The page stays responsive meanwhile: the engine runs off its thread.
 */
export function SessionBusy() {
  const busy = useSimStore(selectSessionBusy);
  const store = useSimStoreApi();
  const t = useT();
  const [since, setSince] = useState<number | null>(null);
  const [now, setNow] = useState(0);
  useEffect(() => {
    if (!busy) return setSince(null);
    const start = performance.now();
    setSince(start);
    setNow(start);
    const timer = window.setInterval(() => setNow(performance.now()), elapsedRedrawMs);
    return () => window.clearInterval(timer);
  }, [busy]);
  if (!busy || since === null) return null;
  // The host marks itself busy after sessionBusyAfterMs without an answer: count from the request.
  const seconds = ((now - since + sessionBusyAfterMs) / 1000).toFixed(1);
  return (
    <div className="status-slot session-busy" role="status" aria-live="polite" data-testid="session-busy">
      <span className="session-busy__spinner" aria-hidden="true" />
      <span className="session-busy__text">{t('sessionBusy', { seconds })}</span>
      <button type="button" className="button button--small" title={t('sessionStopHint')} onClick={() => store.getState().stopSession()} data-testid="session-stop">
        {t('sessionStop')}
      </button>
    </div>
  );
}
