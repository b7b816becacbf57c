/**
 * Share links that carry their scenario (`def=`, run-link.ts): decoded and encoded here, loaded
 * on demand (the first screen never needs it unless such a link is opened or a scenario is edited).
 * The payload is checked as any definition (src/definition/link-codec.ts), then the rest of the link
 * as any link, against that one scenario. Never throws; never returns part of a scenario.
 */
import { decodeDefinitionPayload, encodeDefinitionPayload } from '../../definition/link-codec';
import type { ScenarioDefinition } from '../../definition';
import type { Scenario } from '../../engine/scenario';
import { clip, DEFINITION_PARAM, parseRunLink, type RunLink } from './run-link';
import type { LinkError } from './types';

export type DefinitionLinkParse =
  | { readonly kind: 'ok'; readonly link: RunLink; readonly payload: string; readonly custom: { readonly scenario: Scenario; readonly definition: ScenarioDefinition } }
  | { readonly kind: 'error'; readonly error: LinkError };

/** Problems shown at most in a refused link's message (each with its path). */
const problemLinesMax = 5;
const detailCharsMax = 1_000;

export async function parseDefinitionLink(hash: string): Promise<DefinitionLinkParse> {
  const fail = (reason: LinkError['reason'], detail: string): DefinitionLinkParse => ({ kind: 'error', error: { reason, detail } });
  const text = hash.startsWith('#') ? hash.slice(1) : hash;
  const queryAt = text.indexOf('?');
  if (queryAt === -1) return fail('bad-format', clip(text));
  const pairs = text.slice(queryAt + 1).split('&');
  const carrying = pairs.filter((pair) => pair.startsWith(`${DEFINITION_PARAM}=`));
  if (carrying.length !== 1) return fail('bad-format', `${DEFINITION_PARAM} ${carrying.length} times`);
  const payload = carrying[0].slice(DEFINITION_PARAM.length + 1);
  const decoded = await decodeDefinitionPayload(payload);
  if (!decoded.ok) {
    const lines = decoded.problems.slice(0, problemLinesMax).map((p) => (p.path === '' ? p.message : `${p.path}: ${p.message}`));
    const more = decoded.problems.length > problemLinesMax ? [`(${decoded.problems.length - problemLinesMax} more)`] : [];
    return fail('bad-definition', clip([...lines, ...more].join('\n'), detailCharsMax));
  }
  const rest = `${text.slice(0, queryAt)}?${pairs.filter((pair) => !pair.startsWith(`${DEFINITION_PARAM}=`)).join('&')}`;
  const parsed = parseRunLink(rest, [decoded.scenario]);
  if (parsed.kind === 'error') {
    // The path names another scenario than the one carried: the link was pieced together or changed.
    if (parsed.error.reason === 'unknown-scenario') return fail('bad-format', `the link names scenario "${parsed.error.detail}" but carries "${decoded.definition.id}"`);
    return parsed;
  }
  if (parsed.kind !== 'ok') return fail('bad-format', clip(text));
  return { kind: 'ok', link: parsed.link, payload, custom: { scenario: decoded.scenario, definition: decoded.definition } };
}

/** The `def=` payload for a definition, or its length when a link cannot carry it. */
export { encodeDefinitionPayload };
