/**
 * Goal: the definition validator accepts what the format allows, refuses everything else with the
 * path of each problem (every problem, not just the first), and never throws, whatever it is given.
 * The published JSON Schema is exactly what the valibot schema generates.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { definitionBounds, definitionOfScenario, parseDefinition, parseDefinitionText, type DefinitionProblem } from '../../src/definition';
import { runSchedule } from '../../src/engine/simulation';
import { SCENARIOS } from '../../src/scenarios';
import { definitionJsonSchemaText } from '../../scripts/definition-json-schema';
import { runs } from '../support/size';

/** The smallest useful definition: two clients racing for a lock with a naive release. */
function minimal(): Record<string, unknown> {
  return {
    version: 1,
    id: 'my-lock',
    params: { ttlMs: 5000 },
    defaultSchedule: 'A A~7000 +6000 B +1000',
    variants: [
      {
        id: 'naive',
        clients: ['A', 'B'].map((id) => ({
          id,
          program: [
            { op: 'command', argv: ['SET', 'lock', '${token}', 'NX', 'PX', '${ttlMs}'], saveAs: 'ok' },
            { op: 'if', when: { test: 'nil', reply: 'ok' }, goto: 'done' },
            { op: 'enter' },
            { op: 'work', durationMs: 1000 },
            { op: 'leave' },
            { op: 'command', argv: ['DEL', 'lock'], releases: true },
            { op: 'end', label: 'done' },
          ],
        })),
        expect: { violations: ['foreign-release'] },
      },
    ],
  };
}

function problemsOf(input: unknown): readonly DefinitionProblem[] {
  const result = parseDefinition(input);
  if (result.ok) throw new Error('expected problems, the definition was accepted');
  return result.problems;
}

/** A definition as loose JSON, edited into every wrong shape. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Loose = any;

/** Applies `edit` to a fresh minimal definition and returns its problems. */
function problemsAfter(edit: (d: Loose) => void): readonly DefinitionProblem[] {
  const d = minimal();
  edit(d);
  return problemsOf(d);
}

describe('docs/scenario-definition.schema.json', () => {
  it('is what the valibot schema generates (run `npm run docs:schema` when this fails)', () => {
    const committed = readFileSync(new URL('../../docs/scenario-definition.schema.json', import.meta.url), 'utf8');
    expect(committed === definitionJsonSchemaText(), 'the published JSON Schema is out of date').toBe(true);
  });

  it('names the bounds of the format', () => {
    const schema = definitionJsonSchemaText();
    expect(schema).toContain(`"maxItems": ${definitionBounds.programStepCountMax}`);
    expect(schema).toContain(`"maximum": ${definitionBounds.durationMsMax}`);
    expect(schema).toContain(`"maxLength": ${definitionBounds.scriptSourceCharsMax}`);
  });
});

describe('valid definitions', () => {
  it('fills in what a minimal definition leaves out', () => {
    const result = parseDefinition(minimal());
    if (!result.ok) throw new Error(JSON.stringify(result.problems));
    const s = result.scenario;
    expect(s.title).toEqual({ en: 'my-lock', zh: 'my-lock' });
    expect(s.lockKey).toBe('lock');
    expect(s.params).toEqual({ ttlMs: '5000' });
    expect(s.defaultVariant).toBe('naive');
    expect(s.variants[0].expect).toEqual({ violations: ['foreign-release'], absent: [] });
  });

  it('runs: the minimal definition shows its foreign release under its default schedule', () => {
    const result = parseDefinition(minimal());
    if (!result.ok) throw new Error('rejected');
    const trace = runSchedule(result.scenario, {});
    expect(trace.violations.map((v) => v.violation)).toContain('foreign-release');
  });

  it('takes a text as one string or as { en, zh } (zh falls back to en)', () => {
    const result = parseDefinition({ ...minimal(), title: { en: 'Mine' }, summary: { en: 'One', zh: '一' }, lesson: 'Both' });
    if (!result.ok) throw new Error('rejected');
    expect(result.scenario.title).toEqual({ en: 'Mine', zh: 'Mine' });
    expect(result.scenario.summary).toEqual({ en: 'One', zh: '一' });
    expect(result.scenario.lesson).toEqual({ en: 'Both', zh: 'Both' });
  });

  it('accepts every built-in scenario as exported', () => {
    for (const scenario of SCENARIOS) expect(parseDefinition(definitionOfScenario(scenario)).ok, scenario.id).toBe(true);
  });

  it('applies only the listed checkers', () => {
    const d = minimal();
    const result = parseDefinition({ ...d, checkers: ['mutual-exclusion'], variants: [{ ...(d.variants as Loose[])[0], expect: {} }] });
    if (!result.ok) throw new Error(JSON.stringify(result.problems));
    const all = parseDefinition(d);
    if (!all.ok) throw new Error('rejected');
    const kinds = (scenario: typeof all.scenario) => [...new Set(runSchedule(scenario, {}).violations.map((v) => v.violation))];
    expect(kinds(all.scenario)).toEqual(['mutual-exclusion', 'foreign-release']);
    expect(kinds(result.scenario)).toEqual(['mutual-exclusion']);
  });
});

describe('invalid definitions: every problem with its path', () => {
  const cases: [string, (d: Loose) => void, string, RegExp][] = [
    ['an unknown field', (d) => (d.varaints = []), 'varaints', /unknown field "varaints"/],
    ['a missing version', (d) => delete d.version, 'version', /missing field "version"/],
    ['a bad scenario id', (d) => (d.id = 'My Lock'), 'id', /lower-case letters/],
    ['a bad client id', (d) => (d.variants[0].clients[0].id = '1A'), 'variants[0].clients[0].id', /a client id/],
    ['an unknown step op', (d) => (d.variants[0].clients[0].program[2] = { op: 'lock' }), 'variants[0].clients[0].program[2].op', /unknown step op "lock"/],
    ['a missing step field', (d) => delete d.variants[0].clients[0].program[0].argv, 'variants[0].clients[0].program[0].argv', /.+/],
    ['an unknown step field', (d) => (d.variants[0].clients[0].program[3].ms = 5), 'variants[0].clients[0].program[3].ms', /unknown field "ms"/],
    ['a duration past one day', (d) => (d.variants[0].clients[0].program[3].durationMs = 90_000_000), 'variants[0].clients[0].program[3].durationMs', /at most 86400000 ms/],
    ['a fractional duration', (d) => (d.variants[0].clients[0].program[3].durationMs = 1.5), 'variants[0].clients[0].program[3].durationMs', /whole number of milliseconds/],
    ['too many attempts', (d) => d.variants[0].clients[0].program.push({ op: 'retry', goto: 'done', afterMs: 10, attemptCountMax: 1e6 }), 'variants[0].clients[0].program[7].attemptCountMax', /at most 10000 attempts/],
    ['too many clients', (d) => (d.variants[0].clients = Array.from({ length: 17 }, (_, i) => ({ id: `C${i}`, program: [] }))), 'variants[0].clients', /at most 16 clients/],
    ['too long a program', (d) => (d.variants[0].clients[0].program = Array.from({ length: 257 }, () => ({ op: 'enter' }))), 'variants[0].clients[0].program', /at most 256 steps/],
    ['too big a script', (d) => (d.scripts = { big: { source: 'x'.repeat(70_000) } }), 'scripts.big.source', /at most 65536 characters/],
    ['a goto to no label', (d) => (d.variants[0].clients[0].program[1].goto = 'dne'), 'variants[0].clients[0].program[1].goto', /no step of client A has the label "dne"/],
    ['a label used twice', (d) => (d.variants[0].clients[1].program[2].label = 'done'), 'variants[0].clients[1].program[2].label', /label "done" is used twice/],
    ['a reply never saved', (d) => (d.variants[0].clients[0].program[1].when.reply = 'gone'), 'variants[0].clients[0].program[1].when.reply', /never saves a reply as "gone"/],
    ['an unknown script', (d) => d.variants[0].clients[0].program.splice(5, 1, { op: 'eval', script: 'release', keys: ['lock'], args: ['${token}'] }), 'variants[0].clients[0].program[5].script', /no script named "release"/],
    ['an unknown variable', (d) => (d.variants[0].clients[0].program[0].argv[2] = '${tok}'), 'variants[0].clients[0].program[0].argv[2]', /\$\{tok\} is neither a parameter/],
    ['an unknown param', (d) => (d.variants[0].clients[1].program[0].argv[5] = '${ttl}'), 'variants[0].clients[1].program[0].argv[5]', /\$\{ttl\} is neither a parameter/],
    ['a start of no client', (d) => d.variants[0].clients[0].program.unshift({ op: 'start', client: 'W' }), 'variants[0].clients[0].program[0].client', /no client "W"/],
    ['startedBy a client without a start step', (d) => (d.variants[0].clients[1].startedBy = 'A'), 'variants[0].clients[1].startedBy', /has no "start" step for B/],
    ['tokenFrom a later client', (d) => (d.variants[0].clients[0].tokenFrom = 'B'), 'variants[0].clients[0].tokenFrom', /must be listed before A/],
    ['a bad default schedule', (d) => (d.defaultSchedule = 'A +4OOO B'), 'defaultSchedule', /at position 3: "\+4OOO"/],
    ['a schedule naming no client', (d) => (d.defaultSchedule = 'A C'), 'defaultSchedule', /"C"/],
    ['narration past the schedule', (d) => (d.narration = [{ step: 9, text: 'late' }]), 'narration[0].step', /past the default schedule's 5 choices/],
    ['an unknown default variant', (d) => (d.defaultVariant = 'safe'), 'defaultVariant', /no variant "safe"/],
    ['an unknown violation kind', (d) => (d.variants[0].expect.violations = ['deadlock']), 'variants[0].expect.violations[0]', /a violation kind/],
    ['a kind both expected and absent', (d) => (d.variants[0].expect.absent = ['foreign-release']), 'variants[0].expect.absent', /both expected and expected absent/],
    ['an expected kind nobody checks', (d) => (d.checkers = ['mutual-exclusion']), 'variants[0].expect.violations[0]', /its checker is not in checkers/],
    ['a variant id used twice', (d) => d.variants.push(d.variants[0]), 'variants', /variant id "naive" is used twice/],
    ['no variants', (d) => (d.variants = []), 'variants', /at least one variant/],
    ['a param that is neither string nor integer', (d) => (d.params.ttlMs = true), 'params.ttlMs', /a string or an integer/],
    ['a newer version', (d) => (d.version = 2), 'version', /newer than this Lockstep reads/],
  ];
  for (const [name, edit, path, message] of cases) {
    it(`${name}: ${path}`, () => {
      const problems = problemsAfter(edit);
      const found = problems.find((p) => p.path === path);
      expect(found, `problems: ${JSON.stringify(problems)}`).toBeDefined();
      expect(found?.message).toMatch(message);
    });
  }

  it('reports every problem, not only the first', () => {
    const problems = problemsAfter((d) => {
      d.id = 'Bad Id';
      d.variants[0].clients[0].program[3].durationMs = -1;
      d.variants[0].clients[1].id = 'b b';
    });
    expect(problems.map((p) => p.path)).toEqual(['id', 'variants[0].clients[0].program[3].durationMs', 'variants[0].clients[1].id']);
  });

  it('reports every cross-reference problem together', () => {
    const problems = problemsAfter((d) => {
      d.variants[0].clients[0].program[1].goto = 'x';
      d.variants[0].clients[1].program[1].goto = 'y';
      d.defaultVariant = 'z';
    });
    expect(problems).toHaveLength(3);
  });

  it('refuses what is not a JSON object, with a reason', () => {
    const cyclic: Record<string, unknown> = { version: 1 };
    cyclic.self = cyclic;
    const throwing = Object.defineProperty({}, 'version', { enumerable: true, get: () => { throw new Error('boom'); } });
    for (const input of [null, undefined, 5, 'text', [], [minimal()], cyclic, throwing, { version: 10n }, () => 1]) {
      const problems = problemsOf(input);
      expect(problems[0].path).toBe('');
      expect(problems[0].message.length).toBeGreaterThan(5);
    }
  });

  it('refuses text that is not JSON, or too long', () => {
    expect(parseDefinitionText('{ "version": 1,').ok).toBe(false);
    const long = JSON.stringify({ ...minimal(), lesson: 'x'.repeat(definitionBounds.definitionCharsMax) });
    const result = parseDefinitionText(long);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.problems[0].message).toMatch(/at most 1048576 are accepted/);
  });
});

describe('the validator never throws (fast-check)', () => {
  const check = (input: unknown) => {
    const result = parseDefinition(input);
    if (!result.ok) {
      expect(result.problems.length).toBeGreaterThan(0);
      for (const p of result.problems) {
        expect(typeof p.path).toBe('string');
        expect(typeof p.message).toBe('string');
      }
    }
  };

  it('on anything at all (seeded)', () => {
    fc.assert(fc.property(fc.anything({ withBigInt: true, withMap: true, withSet: true, withTypedArray: true, withSparseArray: true }), check), { seed: 16, numRuns: runs(500) });
  });

  it('on JSON text of any shape (seeded)', () => {
    fc.assert(fc.property(fc.json(), (text) => void parseDefinitionText(text)), { seed: 17, numRuns: runs(500) });
  });

  /** A built-in definition with one value somewhere replaced by an arbitrary JSON value. */
  const mutated = fc
    .record({ scenario: fc.constantFrom(...SCENARIOS), pick: fc.nat(), value: fc.jsonValue({ maxDepth: 2 }), remove: fc.boolean() })
    .map(({ scenario, pick, value, remove }) => {
      const d = JSON.parse(JSON.stringify(definitionOfScenario(scenario))) as unknown;
      const slots: [Record<string, unknown> | unknown[], string | number][] = [];
      const walk = (node: unknown) => {
        if (Array.isArray(node)) {
          node.forEach((x, i) => {
            slots.push([node, i]);
            walk(x);
          });
        } else if (typeof node === 'object' && node !== null) {
          for (const [k, x] of Object.entries(node)) {
            slots.push([node as Record<string, unknown>, k]);
            walk(x);
          }
        }
      };
      walk(d);
      const [parent, key] = slots[pick % slots.length];
      if (remove && !Array.isArray(parent)) delete (parent as Record<string, unknown>)[key as string];
      else (parent as Record<string | number, unknown>)[key] = value;
      return d;
    });

  it('on built-in definitions with one value changed or removed (seeded)', () => {
    fc.assert(
      fc.property(mutated, (d) => {
        check(d);
        const result = parseDefinition(d);
        // Whatever passes validation must run its default variant without an engine crash.
        if (result.ok) {
          try {
            runSchedule(result.scenario, {});
          } catch (error) {
            expect((error as Error).name, (error as Error).message).toMatch(/ChoiceError|ScheduleSyntaxError/);
          }
        }
      }),
      { seed: 18, numRuns: runs(300) },
    );
  });
});
