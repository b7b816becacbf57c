import type { RespClient } from '../support/resp-client';
import { arityCases } from './arity-cases';
import { CASES_BY_AREA } from './cases/index';
import { flushReal, realExecutor, runCase, type DiffCase, type Executor } from './harness';

/**
 * The fidelity measurement: the whole differential corpus (every area and the generated arity
 * cases) against a real redis-server, for one server under test. `tests/differential/measure.ts`
 * prints it for Lockstep and for the ioredis-mock baseline; tests/differential/baseline.test.ts
 * checks that it is produced and that Lockstep matches every case.
 */

export interface AreaScore {
  readonly area: string;
  readonly cases: number;
  readonly casesMatched: number;
  readonly replies: number;
  readonly repliesMatched: number;
}

export interface FidelityScore {
  readonly server: string;
  readonly areas: readonly AreaScore[];
  readonly cases: number;
  readonly casesMatched: number;
  readonly replies: number;
  readonly repliesMatched: number;
  /** Names of the cases that did not match. */
  readonly mismatched: readonly string[];
}

export function corpus(): Record<string, readonly DiffCase[]> {
  return { ...CASES_BY_AREA, arity: arityCases() };
}

export async function measureCorpus(server: string, main: RespClient, makeExecutor: (diff: DiffCase) => Executor): Promise<FidelityScore> {
  const areas: AreaScore[] = [];
  const mismatched: string[] = [];
  for (const [area, cases] of Object.entries(corpus())) {
    let casesMatched = 0;
    let replies = 0;
    let repliesMatched = 0;
    for (const diff of cases) {
      await flushReal(main);
      const outcome = await runCase(realExecutor(main), makeExecutor(diff), diff);
      replies += outcome.outcomes.length;
      repliesMatched += outcome.outcomes.filter((o) => o.match).length;
      if (outcome.match) casesMatched += 1;
      else mismatched.push(`${area}: ${diff.name}`);
    }
    areas.push({ area, cases: cases.length, casesMatched, replies, repliesMatched });
  }
  const sum = (pick: (a: AreaScore) => number) => areas.reduce((n, a) => n + pick(a), 0);
  return {
    server,
    areas,
    cases: sum((a) => a.cases),
    casesMatched: sum((a) => a.casesMatched),
    replies: sum((a) => a.replies),
    repliesMatched: sum((a) => a.repliesMatched),
    mismatched,
  };
}

const percent = (part: number, whole: number) => `${whole === 0 ? 0 : Math.round((100 * part) / whole)}%`;

/** A Markdown report: one row per server, then cases matching by area. */
export function renderReport(scores: readonly FidelityScore[]): string {
  const lines = ['| Server | Cases matching | Replies matching |', '|---|---|---|'];
  for (const s of scores) lines.push(`| ${s.server} | ${s.casesMatched} / ${s.cases} (${percent(s.casesMatched, s.cases)}) | ${s.repliesMatched} / ${s.replies} |`);
  lines.push('', `| Area | ${scores.map((s) => s.server).join(' | ')} |`, `|---|${scores.map(() => '---').join('|')}|`);
  for (const [i, area] of (scores[0]?.areas ?? []).entries()) {
    lines.push(`| ${area.area} | ${scores.map((s) => `${s.areas[i].casesMatched}/${s.areas[i].cases}`).join(' | ')} |`);
  }
  return lines.join('\n');
}
