/** The explorer job of the engine worker: searches in slices, posting progress; a cancel stops it between slices. */
import type { ExploreCommandMessage, ExploreWorkerMessage } from './explore-protocol';
import { runExploration, type RunningExploration } from './explore-run';

let running: RunningExploration | null = null;

export function onExploreCommand(command: ExploreCommandMessage, post: (message: ExploreWorkerMessage) => void): void {
  if (command.kind === 'cancel') {
    if (running?.id === command.id) running.cancel();
    return;
  }
  running?.cancel();
  const id = command.request.id;
  running = runExploration(
    command.request,
    {
      onProgress: (report) => post({ kind: 'progress', ...report }),
      onDone: (done) => {
        if (running?.id === id) running = null;
        post({ kind: 'done', ...done });
      },
      onError: (text) => {
        if (running?.id === id) running = null;
        post({ kind: 'error', id, message: text });
      },
    },
    (next) => setTimeout(next, 0),
  );
}
