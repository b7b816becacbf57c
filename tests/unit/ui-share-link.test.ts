import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatSchedule, type Choice } from '../../src/engine/schedule';
import { SCENARIOS, findScenario } from '../../src/scenarios';
import { formatRunHash, formatRunLink, isEmbed, linkLengthMax, parseRunLink, type LinkParse } from '../../src/ui/store/run-link';
import { runs } from '../support/size';

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

// A step re-encodes only the schedule's new tokens (the link is asked for after every step): the
// link of a schedule that grew equals the link written from scratch, whatever came before it.
describe('formatRunHash while a schedule grows', () => {
  it(`equals the link written from scratch (fast-check seed ${PROPERTY_SEED})`, () => {
    const token = fc.constantFrom('A', 'B', '+1000', '$SET|k|1.5', 'A!', '$GET|k%20x', 'crash:A');
    fc.assert(
      fc.property(fc.array(fc.array(token, { maxLength: 6 }), { maxLength: 8 }), fc.boolean(), (parts, restart) => {
        const fromScratch = (text: string) => {
          const tokens = text === '' ? [] : text.split(' ');
          return tokens.map((t) => encodeURIComponent(t).replace(/\./g, '%2E')).join('.');
        };
        let text = restart ? 'B' : '';
        formatRunHash('get-then-del', 'lua', 1, text, null);
        for (const part of parts) {
          text = [text, ...part].filter((t) => t !== '').join(' ');
          const count = text === '' ? 0 : text.split(' ').length;
          expect(formatRunHash('get-then-del', 'lua', 1, text, 1)).toBe(`#/v1/get-then-del/lua?seed=1&s=${fromScratch(text)}${count === 1 ? '' : '&at=1'}`);
        }
      }),
      { seed: PROPERTY_SEED, numRuns: runs(100) },
    );
  });
});
