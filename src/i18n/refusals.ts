/**
 * Refusals in words. The engine words why a choice cannot apply now with a catalog key and its
 * parameters (a MessageRef; English with plain numbers where it must be a string: ChoiceError,
 * the CLI, the Node API). The page shows a refusal in the reader's language: from its MessageRef
 * where it has one, else by reading the English back (a refusal kept inside a notice).
 */
import type { MessageKey, MessageRef } from './catalog';
import { matchSentence } from './sentences';
import { translateRef, type Lang } from './translate';

/** Every refusal sentence, the specific before the general ones they would also match. */
const REFUSALS: readonly MessageKey[] = [
  'refuseTimelineFull',
  'refuseClockPass',
  'refuseStallPass',
  'refuseChoiceSteps',
  'refuseNoClient',
  'refuseStallCrashed',
  'refuseCrashFinished',
  'refuseCrashCrashed',
  'refuseStepFinished',
  'refuseStepCrashed',
  'refuseNotStarted',
  'refuseAwaitNoWaker',
  'refuseNeverReply',
  'refuseNoWake',
  'refuseNotInteger',
  'refuseUnknownNode',
  'refuseNoNodes',
  'refuseNoNode',
  'refuseNodeCrashDown',
  'refuseNodeRestartUp',
  'refusePromoteNotReplica',
  'refusePromoteDown',
  'refuseAlreadyPartitioned',
  'refuseNotPartitioned',
  'refuseNotReplica',
  'refuseConsoleEmpty',
  'refuseConsoleWords',
  'refuseConsoleChars',
  'refuseConsoleBlocks',
  'refuseConsoleSubscribes',
  'refuseConsoleOutside',
  'refuseConsoleCloses',
  'refuseConsoleClientSub',
  'refuseConsoleNeedsNode',
  'refuseConsoleNoNodes',
  'refuseConsoleNodeDown',
  'refuseConsoleNodeNotServing',
  'refuseConsoleNameTaken',
  'refuseConsoleScriptTime',
  'refuseConsoleBusy',
  'refuseConsoleDirective',
];

/** The refusal behind an English reason (with or without a ChoiceError's "step N: "), or null. */
export function refusalRef(text: string): MessageRef | null {
  const atStep = matchSentence(['refuseAtStep'], text);
  if (atStep !== null && typeof atStep.params.step === 'number') {
    const inner = refusalRef(String(atStep.params.reason));
    return inner === null ? null : ({ key: 'refuseAtStep', params: { step: atStep.params.step, reason: String(atStep.params.reason) } } as MessageRef);
  }
  const found = matchSentence(REFUSALS, text) ?? matchSentence(['refuseProgram'], text);
  if (found === null) return null;
  return (Object.keys(found.params).length === 0 ? { key: found.key } : found) as MessageRef;
}

/** A refusal in `lang`: a MessageRef, or English text read back. Text the catalog cannot read stays as it is. */
export function refusalText(refusal: MessageRef | string, lang: Lang): string {
  const ref = typeof refusal === 'string' ? refusalRef(refusal) : refusal;
  if (ref === null) return refusal as string;
  if (ref.key === 'refuseAtStep') {
    const params = ref.params as { step: number; reason: string };
    return translateRef({ key: 'refuseAtStep', params: { step: params.step, reason: refusalText(params.reason, lang) } }, lang);
  }
  return translateRef(ref, lang);
}
