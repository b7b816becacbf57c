// Goal: the deferred outcome service (the worker starts after the first paint) loses no request
// that matters: before start only the latest waits, and it reaches the real service once loaded.
import { describe, expect, it } from 'vitest';
import { deferredOutcomeService } from '../../src/ui/worker/deferred';
import type { OutcomeRequest, OutcomeService } from '../../src/ui/worker/protocol';

function request(id: number): OutcomeRequest {
  return { id, scenarioId: 'get-then-del', seed: 1, schedule: 'A', baseVariantId: 'get-then-del' };
}

function recordingService(): OutcomeService & { sent: number[]; disposed: boolean } {
  const service = {
    sent: [] as number[],
    disposed: false,
    request(r: OutcomeRequest) {
      service.sent.push(r.id);
    },
    dispose() {
      service.disposed = true;
    },
  };
  return service;
}

describe('deferred outcome service', () => {
  it('holds the latest request until started, then forwards it and every later one', async () => {
    const real = recordingService();
    let loads = 0;
    const deferred = deferredOutcomeService(async () => {
      loads += 1;
      return real;
    });
    deferred.request(request(1), () => {});
    deferred.request(request(2), () => {});
    expect(real.sent).toEqual([]);
    await Promise.all([deferred.start(), deferred.start()]);
    expect(loads).toBe(1);
    expect(real.sent).toEqual([2]);
    deferred.request(request(3), () => {});
    expect(real.sent).toEqual([2, 3]);
    deferred.dispose();
    expect(real.disposed).toBe(true);
  });

  it('disposes a service that finishes loading after the store was disposed', async () => {
    const real = recordingService();
    const deferred = deferredOutcomeService(async () => real);
    deferred.request(request(1), () => {});
    const started = deferred.start();
    deferred.dispose();
    await started;
    expect(real.disposed).toBe(true);
    expect(real.sent).toEqual([]);
  });
});
