/**
 * What the page shows of a scenario, as plain data the store publishes: titles, lesson, variants,
 * the scripted narration and each client's program as lines. Built once per loaded run, so
 * components never look a scenario up themselves.
 */
import { scriptNamesOf } from '../../engine/describe';
import { isRedisStep, renderStep } from '../../engine/program';
import { nodeIdsOf, type Scenario, type VariantSpec } from '../../engine/scenario';
import { challengesOf, questionsOf, variantLabelOf } from '../../scenarios/learning';
import type { LocalizedText, ProgramLine, RunInfo } from './types';

export function runInfo(scenario: Scenario, variant: VariantSpec): RunInfo {
  const story = new Map<number, LocalizedText>();
  for (const n of scenario.narration ?? []) story.set(n.step, n.text);
  for (const n of variant.narration ?? []) story.set(n.step, n.text);
  const scripts = { ...(scenario.scripts ?? {}), ...(variant.scripts ?? {}) };
  const programs: Record<string, ProgramLine[]> = {};
  for (const client of variant.clients) {
    programs[client.id] = client.program.map((step, pc) => ({
      pc,
      label: step.label,
      code: renderStep(step, { ...scenario.params, ...(variant.params ?? {}) }, scripts),
      note: step.note,
      redis: isRedisStep(step),
      lua: step.op === 'eval' && !step.bySha && scripts[step.script] ? scripts[step.script].source.split('\n') : null,
      scriptName: step.op === 'eval' ? step.script : null,
    }));
  }
  return {
    scenarioId: scenario.id,
    title: scenario.title,
    summary: scenario.summary,
    lesson: scenario.lesson,
    variants: scenario.variants.map((v) => ({ id: v.id, title: v.title })),
    variantLabel: variantLabelOf(scenario.id),
    challenges: challengesOf(scenario),
    questions: questionsOf(scenario.id).filter((q) => !q.variantIds || q.variantIds.includes(variant.id)),
    story,
    programs,
    scriptNames: scriptNamesOf(scenario, variant),
    variantScriptNames: Object.fromEntries(scenario.variants.map((v) => [v.id, scriptNamesOf(scenario, v)])),
    exploreNote: scenario.explore?.note ?? null,
    nodeIds: nodeIdsOf(scenario, variant),
    redisCluster: scenario.redisCluster === true,
    quorum: quorumOf({ ...scenario.params, ...(variant.params ?? {}) }),
  };
}

/** A Redlock's quorum (the `quorum` param its acquire counts votes against), or null. */
function quorumOf(params: Readonly<Record<string, string>>): number | null {
  const quorum = Number(params.quorum);
  return params.quorum !== undefined && Number.isSafeInteger(quorum) && quorum > 0 ? quorum : null;
}
