import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatSchedule, parseSchedule, type Choice } from '../../src/engine/schedule';
import { SCENARIOS, findScenario } from '../../src/scenarios';
import { formatRunHash, formatRunHashWith, formatRunLink, isEmbed, linkLengthMax, NO_RUN_LINK_SCHEDULE, parseRunLink, runLinkScheduleOf, type LinkParse } from '../../src/ui/store/run-link';
import { runs } from '../support/size';
import { createSimStore } from '../../src/ui/store/create-sim-store';
import { selectRunHash } from '../../src/ui/store/selectors';
import type { SimState } from '../../src/ui/store/store-types';

// Goal: a share link carries a whole run (scenario, variant, seed, schedule, position) and comes
// back unchanged; anything else, broken or hostile, is refused with a reason and never half-loaded.

const PROPERTY_SEED = 20261203;

const choiceArb: fc.Arbitrary<Choice> = fc.oneof(
  fc.constantFrom('A', 'B').map((clientId) => ({ kind: 'step', clientId }) as const),
  fc.integer({ min: 1, max: 86_400_000 }).map((ms) => ({ kind: 'advance', ms }) as const),
  fc.constantFrom('A', 'B').map((clientId) => ({ kind: 'crash', clientId }) as const),
  fc.tuple(fc.constantFrom('A', 'B'), fc.integer({ min: 1, max: 86_400_000 })).map(([clientId, ms]) => ({ kind: 'stall', clientId, ms }) as const),
);

function reasonOf(parse: LinkParse): string {
  return parse.kind === 'error' ? parse.error.reason : parse.kind;
}

describe('share links', () => {
  it(`round-trips any schedule, seed and position (fast-check seed ${PROPERTY_SEED})`, () => {
    const scenario = findScenario('get-then-del');
    fc.assert(
      fc.property(
        fc.constantFrom(...scenario.variants.map((v) => v.id)),
        fc.integer({ min: 0, max: 0xffff_ffff }),
        fc.array(choiceArb, { maxLength: 40 }),
        fc.nat(),
        (variantId, seed, choices, cursorPick) => {
          const cursor = choices.length === 0 ? 0 : cursorPick % (choices.length + 1);
          const hash = formatRunLink({ scenarioId: scenario.id, variantId, seed, schedule: choices, cursor });
          const parsed = parseRunLink(hash, SCENARIOS);
          expect(parsed.kind).toBe('ok');
          if (parsed.kind !== 'ok') return;
          expect(parsed.link.scenarioId).toBe(scenario.id);
          expect(parsed.link.variantId).toBe(variantId);
          expect(parsed.link.seed).toBe(seed);
          expect(formatSchedule(parsed.link.schedule)).toBe(formatSchedule(choices));
          // The end of the schedule is written as "no position".
          expect(parsed.link.cursor ?? choices.length).toBe(cursor);
        },
      ),
      { seed: PROPERTY_SEED, numRuns: runs(200) },
    );
  });

  it('reads the documented example', () => {
    const parsed = parseRunLink('#/v1/get-then-del/lua?seed=7&s=A.A.%2B4000.B.A&at=3', SCENARIOS);
    expect(parsed).toEqual({
      kind: 'ok',
      link: {
        scenarioId: 'get-then-del',
        variantId: 'lua',
        seed: 7,
        schedule: [
          { kind: 'step', clientId: 'A' },
          { kind: 'step', clientId: 'A' },
          { kind: 'advance', ms: 4000 },
          { kind: 'step', clientId: 'B' },
          { kind: 'step', clientId: 'A' },
        ],
        cursor: 3,
        challengeId: null,
        predict: false,
      },
    });
  });

  it('carries a challenge and predict mode, added to v1 compatibly, and refuses an unknown challenge', () => {
    const hash = '#/v1/get-then-del/get-then-del?seed=1&s=&ch=delete-b-lock&predict=1';
    const parsed = parseRunLink(hash, SCENARIOS);
    expect(parsed.kind === 'ok' && [parsed.link.challengeId, parsed.link.predict]).toEqual(['delete-b-lock', true]);
    if (parsed.kind === 'ok') expect(formatRunLink(parsed.link)).toBe(hash);
    expect(reasonOf(parseRunLink('#/v1/get-then-del/get-then-del?ch=no-such', SCENARIOS))).toBe('unknown-challenge');
    expect(reasonOf(parseRunLink('#/v1/get-then-del/get-then-del?predict=yes', SCENARIOS))).toBe('bad-format');
    // A v1 link without them reads as before: no challenge, predict off.
    const plain = parseRunLink('#/v1/get-then-del/lua?seed=7', SCENARIOS);
    expect(plain.kind === 'ok' && [plain.link.challengeId, plain.link.predict]).toEqual([null, false]);
  });

  it('treats an empty hash as no link, and a missing schedule as the default one', () => {
    expect(parseRunLink('', SCENARIOS).kind).toBe('none');
    expect(parseRunLink('#', SCENARIOS).kind).toBe('none');
    const parsed = parseRunLink('#/v1/get-then-del/get-then-del', SCENARIOS);
    expect(parsed.kind === 'ok' && formatSchedule(parsed.link.schedule)).toBe(findScenario('get-then-del').defaultSchedule);
  });

  it.each([
    ['#/v2/get-then-del/lua?seed=1&s=A', 'bad-version'],
    ['#/v1/no-such-scenario/lua', 'unknown-scenario'],
    ['#/v1/get-then-del/no-such-variant', 'unknown-variant'],
    ['#/v1/__proto__/lua', 'unknown-scenario'],
    ['#/v1/constructor/constructor', 'unknown-scenario'],
    ['#/v1/get-then-del', 'bad-format'],
    ['#/v1/get-then-del/lua/extra', 'bad-format'],
    ['#get-then-del', 'bad-format'],
    ['#/v1/get-then-del/lua?seed=-1', 'bad-seed'],
    ['#/v1/get-then-del/lua?seed=1e3', 'bad-seed'],
    ['#/v1/get-then-del/lua?seed=4294967296', 'bad-seed'],
    ['#/v1/get-then-del/lua?seed=1&seed=2', 'bad-format'],
    ['#/v1/get-then-del/lua?s=A.C', 'bad-schedule'],
    ['#/v1/get-then-del/lua?s=A..B', 'bad-schedule'],
    ['#/v1/get-then-del/lua?s=%3Cscript%3Ealert(1)%3C%2Fscript%3E', 'bad-schedule'],
    ['#/v1/get-then-del/lua?s=A%20B', 'bad-schedule'],
    ['#/v1/get-then-del/lua?s=%E0%A4%A', 'bad-schedule'],
    ['#/v1/get-then-del/lua?s=%2B0', 'bad-schedule'],
    ['#/v1/get-then-del/lua?s=A.B&at=3', 'bad-cursor'],
    ['#/v1/get-then-del/lua?s=A&at=-1', 'bad-cursor'],
    ['#/v1/%E0%A4%A/lua', 'unknown-scenario'],
  ])('refuses %s (%s)', (hash, reason) => {
    expect(reasonOf(parseRunLink(hash, SCENARIOS))).toBe(reason);
  });

  it('refuses an over-long link before reading it, and clips what it echoes back', () => {
    const long = `#/v1/get-then-del/lua?s=${'A.'.repeat(linkLengthMax)}A`;
    const parsed = parseRunLink(long, SCENARIOS);
    expect(reasonOf(parsed)).toBe('too-long');
    const hostile = parseRunLink(`#/v1/${'x'.repeat(5000)}/lua`, SCENARIOS);
    expect(hostile.kind === 'error' && hostile.error.detail.length).toBeLessThanOrEqual(81);
  });

  it('finds embed mode in the query string or the hash', () => {
    expect(isEmbed('?embed=1', '')).toBe(true);
    expect(isEmbed('', '#/v1/get-then-del/lua?seed=1&embed=1')).toBe(true);
    expect(isEmbed('?embed=0', '#/v1/get-then-del/lua')).toBe(false);
  });
});

describe('saved preferences and runs', () => {
  const memory = (initial: Record<string, string> = {}) => {
    const data = new Map(Object.entries(initial));
    return { getItem: (k: string) => data.get(k) ?? null, setItem: (k: string, v: string) => void data.set(k, v), data };
  };

  it('reads back what it saved, and reports (never drops) a saved run it cannot read', async () => {
    const { loadPrefs, savePrefs, loadSavedRun, saveSessionHash } = await import('../../src/ui/share/persist');
    const storage = memory();
    savePrefs(storage, { lang: 'zh', theme: 'dark', presentation: true });
    expect(loadPrefs(storage)).toEqual({ lang: 'zh', theme: 'dark', presentation: true });
    saveSessionHash(storage, '#/v1/get-then-del/lua?seed=1&s=A');
    expect(loadSavedRun(storage)).toEqual({ kind: 'hash', hash: '#/v1/get-then-del/lua?seed=1&s=A' });
    expect(loadPrefs(memory({ 'lockstep.prefs.v1': '{not json' }))).toEqual({});
    expect(loadPrefs(memory({ 'lockstep.prefs.v1': '{"lang":"fr","theme":"neon","presentation":"yes"}' }))).toEqual({
      lang: undefined,
      theme: undefined,
      presentation: undefined,
    });
    expect(loadSavedRun(memory({ 'lockstep.session.v1': 'javascript:alert(1)' }))).toEqual({ kind: 'unreadable', text: 'javascript:alert(1)' });
    expect(loadSavedRun(memory())).toEqual({ kind: 'none' });
  });

  it('survives storage that throws (private mode, sandboxed iframes)', async () => {
    const { loadPrefs, savePrefs, loadSavedRun, saveSessionHash, keepUnrestoredRun } = await import('../../src/ui/share/persist');
    const hostile = {
      getItem: () => {
        throw new Error('SecurityError');
      },
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
    };
    expect(loadPrefs(hostile)).toEqual({});
    expect(loadSavedRun(hostile)).toEqual({ kind: 'none' });
    expect(() => keepUnrestoredRun(hostile, 'x')).not.toThrow();
    expect(() => savePrefs(hostile, { lang: 'en' })).not.toThrow();
    expect(() => saveSessionHash(hostile, '#/v1/x/y')).not.toThrow();
  });
});

// The store keeps its run's link schedule beside the log and extends it per choice (a step
// encodes only the new choices; the link is asked for after every step): whatever the log did
// before (grew, stayed, started a new generation, possibly shorter), the kept link schedule and
// the hash made from it equal the ones written from scratch.
describe('the store\'s link schedule while the log grows', () => {
  const fromScratch = (text: string) => {
    const tokens = text === '' ? [] : text.split(' ');
    return tokens.map((t) => encodeURIComponent(t).replace(/\./g, '%2E')).join('.');
  };
  const choicesOf = (tokens: readonly string[]): Choice[] => (tokens.length === 0 ? [] : parseSchedule(tokens.join(' '), ['A', 'B']));

  it(`equals the link written from scratch (fast-check seed ${PROPERTY_SEED})`, () => {
    const token = fc.constantFrom('A', 'B', '+1000', 'A~5000', '$SET|k|1.5', '$GET|k%20x', '!A');
    const move = fc.oneof(
      fc.record({ kind: fc.constant('append' as const), tokens: fc.array(token, { maxLength: 5 }) }),
      fc.record({ kind: fc.constant('reset' as const), tokens: fc.array(token, { maxLength: 8 }) }),
    );
    fc.assert(
      fc.property(fc.array(move, { maxLength: 10 }), (moves) => {
        let generation = 0;
        let choices: Choice[] = [];
        let link = NO_RUN_LINK_SCHEDULE;
        for (const m of moves) {
          if (m.kind === 'reset') {
            generation += 1;
            choices = choicesOf(m.tokens);
          } else choices = [...choices, ...choicesOf(m.tokens)];
          const text = formatSchedule(choices);
          link = runLinkScheduleOf({ generation, stepCount: choices.length, choices, schedule: text }, link);
          expect(link.schedule).toBe(fromScratch(text));
          expect(link.tokenCount).toBe(choices.length);
          expect(formatRunHashWith('get-then-del', 'lua', 1, text, link, 1)).toBe(formatRunHash('get-then-del', 'lua', 1, text, 1));
          expect(formatRunHash('get-then-del', 'lua', 1, text, 1)).toBe(`#/v1/get-then-del/lua?seed=1&s=${fromScratch(text)}${choices.length === 1 ? '' : '&at=1'}`);
        }
      }),
      { seed: PROPERTY_SEED, numRuns: runs(100) },
    );
  });

  it('encodes only the new choices while the log grows, and ignores a link made for other text', () => {
    const choices = choicesOf(['A', 'A', '+1000']);
    const first = runLinkScheduleOf({ generation: 3, stepCount: 2, choices, schedule: 'A A' }, NO_RUN_LINK_SCHEDULE);
    // The same log again: the same object (readers comparing it do not re-render).
    expect(runLinkScheduleOf({ generation: 3, stepCount: 2, choices, schedule: first.text }, first)).toBe(first);
    // Grown within the generation: the earlier tokens are not read again (a stale prefix stays, proving it).
    const stale = { ...first, schedule: 'X.X' };
    expect(runLinkScheduleOf({ generation: 3, stepCount: 3, choices, schedule: 'A A +1000' }, stale).schedule).toBe('X.X.%2B1000');
    // Another generation: encoded from its text.
    expect(runLinkScheduleOf({ generation: 4, stepCount: 3, choices, schedule: 'A A +1000' }, stale).schedule).toBe('A.A.%2B1000');
    // A hash asked for other schedule text (a lesson's start) does not use the run's link schedule.
    expect(formatRunHashWith('get-then-del', 'lua', 1, '', first, 0)).toBe('#/v1/get-then-del/lua?seed=1&s=');
  });
});

// The store extends its link schedule as its run grows and starts again when the run is another.
describe('the run link a store keeps', () => {
  it('is the link written from scratch after steps, a fork and another run', () => {
    const store = createSimStore({ run: { scenarioId: 'get-then-del', variantId: 'get-then-del', schedule: '' } });
    const fromScratch = (s: SimState) => formatRunHash(s.scenarioId, s.variantId, s.seed, s.schedule, s.cursor);
    const check = () => {
      const s = store.getState();
      // Made for the schedule on screen, so the selector takes it rather than encoding again.
      expect(s.runLink.text).toBe(s.schedule);
      expect(selectRunHash(s)).toBe(fromScratch(s));
    };
    for (const client of ['A', 'B', 'A']) {
      store.getState().stepClient(client);
      check();
    }
    store.getState().seek(1);
    store.getState().stepClient('B');
    check();
    expect(store.getState().schedule).toBe('A B');
    store.getState().setSeed(7);
    check();
  });
});
