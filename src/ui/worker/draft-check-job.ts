/** The draft-check job of the engine worker (draft-check.ts): an endless script keeps only its own worker busy. */
import type { DraftCheckReport, DraftCheckRequest } from './draft-check-protocol';
import { checkDraft } from './draft-check';

export function onDraftCheck(request: DraftCheckRequest, post: (report: DraftCheckReport) => void): void {
  try {
    post(checkDraft(request));
  } catch (error) {
    post({ id: request.id, stops: [], failure: error instanceof Error ? error.message : String(error) });
  }
}
