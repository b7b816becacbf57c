/** The property-check job of the engine worker: one check at a time, in slices; a cancel stops it between slices. */
import type { PropertyCheckCommand, PropertyCheckWorkerMessage } from './property-check-protocol';
import { runPropertyCheck, type RunningPropertyCheck } from './property-check-run';

let running: RunningPropertyCheck | null = null;

export function onPropertyCheckCommand(command: PropertyCheckCommand, post: (message: PropertyCheckWorkerMessage) => void): void {
  if (command.kind === 'cancel') {
    if (running?.id === command.id) running.cancel();
    return;
  }
  running?.cancel();
  const id = command.request.id;
  const finish = () => {
    if (running?.id === id) running = null;
  };
  running = runPropertyCheck(
    command.request,
    {
      onProgress: (progress) => post({ kind: 'progress', ...progress }),
      onDone: (done) => {
        finish();
        post({ kind: 'done', ...done });
      },
      onError: (message) => {
        finish();
        post({ kind: 'error', id, message });
      },
    },
    (next) => setTimeout(next, 0),
  );
}
