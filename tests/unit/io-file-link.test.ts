// Goal: a scenario leaves the page and comes back unchanged, as a file or inside a share link, and
// anything else that comes in (a random, corrupted or truncated file or link) gives every problem
// with its JSON path or a valid scenario: never an exception, never part of a scenario.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { definitionOfScenario, parseDefinition, type ScenarioDefinition } from '../../src/definition';
import { definitionLinkCharsMax, scenarioFileBytesMax } from '../../src/definition/bounds';
import { formatScenarioFile, parseScenarioFileText, SCENARIO_FILE_FORMAT } from '../../src/definition/file';
import { decodeDefinitionPayload, encodeDefinitionPayload } from '../../src/definition/link-codec';
import { SCENARIOS, findScenario } from '../../src/scenarios';
import { parseDefinitionLink } from '../../src/ui/store/definition-link';
import { formatRunHash, parseRunLink } from '../../src/ui/store/run-link';
import { setParam, setScriptSource } from '../../src/ui/store/workbench-edits';
import { runs } from '../support/size';

const base = definitionOfScenario(findScenario('get-then-del'));
const file = { name: 'My lock', run: { variant: 'lua', seed: 7, schedule: 'A A A~5000 +4000 B +1000' }, definition: base };

/** Built-ins, and edits of them with arbitrary text where a learner types (script source, a parameter, the title). */
const definitions: fc.Arbitrary<ScenarioDefinition> = fc
  .tuple(fc.constantFrom(...SCENARIOS.map((s) => definitionOfScenario(s))), fc.string({ maxLength: 200 }), fc.string({ unit: 'grapheme', maxLength: 60 }), fc.integer({ min: 1, max: 100_000 }))
  .map(([d, source, title, ttl]) => {
    let out: ScenarioDefinition = { ...d, id: `${d.id.slice(0, 50)}-edited`, title: title === '' ? d.title : title };
    if (Object.keys(out.params ?? {}).length > 0) out = setParam(out, out.variants[0].id, Object.keys(out.params ?? {})[0], String(ttl));
    if (source.trim() !== '') out = setScriptSource(out, out.variants[0].id, 'mine', `return ${JSON.stringify(source)}`);
    return out;
  })
  .filter((d) => parseDefinition(d).ok);

/** Either a valid result, or problems each with a path string and a message. */
function wellFormed(result: { ok: boolean; problems?: readonly { path: string; message: string }[] }) {
  if (result.ok) return;
  expect(result.problems?.length).toBeGreaterThan(0);
  for (const p of result.problems ?? []) {
    expect(typeof p.path).toBe('string');
    expect(p.message.length).toBeGreaterThan(0);
  }
}

describe('scenario files', () => {
  it('round-trips a scenario with its variant, seed and schedule', () => {
    const back = parseScenarioFileText(formatScenarioFile(file));
    expect(back.ok && back.file).toEqual(file);
  });

  it('reads a bare definition (what `lockstep run --file` reads) with its default run', () => {
    const back = parseScenarioFileText(JSON.stringify(base));
    expect(back.ok && back.file.run).toEqual({ variant: 'get-then-del', seed: 1, schedule: base.defaultSchedule });
  });

  it('names every problem with its JSON path', () => {
    const broken = JSON.parse(formatScenarioFile(file)) as Record<string, unknown>;
    const bad = { ...broken, extra: 1, run: { variant: 'lua', seed: -1, schedule: 'A' } };
    const result = parseScenarioFileText(JSON.stringify(bad));
    expect(!result.ok && result.problems.map((p) => p.path).sort()).toEqual(['extra', 'run.seed']);
    const badStep = { ...broken, definition: { ...base, variants: [{ ...base.variants[0], clients: [{ id: 'A', program: [{ op: 'goto', goto: 'nowhere' }] }] }] } };
    const steps = parseScenarioFileText(JSON.stringify(badStep));
    expect(!steps.ok && steps.problems[0]).toEqual({ path: 'definition.variants[0].clients[0].program[0].goto', message: 'no step of client A has the label "nowhere"' });
    // The envelope's problems and the definition's, together.
    const both = parseScenarioFileText(JSON.stringify({ ...badStep, seed: 3 }));
    expect(!both.ok && both.problems.map((p) => p.path)).toEqual(expect.arrayContaining(['seed', 'definition.variants[0].clients[0].program[0].goto']));
    const noVariant = parseScenarioFileText(JSON.stringify({ ...broken, run: { variant: 'nope', seed: 1, schedule: '' } }));
    expect(!noVariant.ok && noVariant.problems[0].path).toBe('run.variant');
    const badSchedule = parseScenarioFileText(JSON.stringify({ ...broken, run: { variant: 'lua', seed: 1, schedule: 'A Z' } }));
    expect(!badSchedule.ok && badSchedule.problems[0].path).toBe('run.schedule');
    const newer = parseScenarioFileText(JSON.stringify({ ...broken, version: 2 }));
    expect(!newer.ok && newer.problems[0]).toMatchObject({ path: 'version' });
  });

  it(`refuses a file over ${scenarioFileBytesMax} bytes before parsing it, and a 1 MB value inside a definition with its path`, () => {
    const huge = parseScenarioFileText(' '.repeat(scenarioFileBytesMax + 1));
    expect(!huge.ok && huge.problems[0].message).toMatch(/at most 2097152 are read/);
    const bigValue = { ...base, params: { ...base.params, big: 'x'.repeat(1_000_000) } };
    const result = parseScenarioFileText(JSON.stringify({ format: SCENARIO_FILE_FORMAT, version: 1, definition: bigValue }));
    expect(!result.ok && result.problems[0]).toMatchObject({ path: 'definition.params.big', message: 'at most 4096 characters' });
  });

  it('any text, any JSON, and any cut or changed file gives a valid scenario or problems with paths (fuzz)', () => {
    const text = formatScenarioFile(file);
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.json(),
          fc.jsonValue().map((v) => JSON.stringify({ format: SCENARIO_FILE_FORMAT, version: 1, run: v, definition: base })),
          fc.jsonValue().map((v) => JSON.stringify({ format: SCENARIO_FILE_FORMAT, version: 1, definition: v })),
          fc.nat({ max: text.length }).map((n) => text.slice(0, n)),
          fc.tuple(fc.nat({ max: text.length - 1 }), fc.string({ minLength: 1, maxLength: 3 })).map(([at, s]) => text.slice(0, at) + s + text.slice(at + 1)),
        ),
        (input) => {
          const result = parseScenarioFileText(input);
          wellFormed(result);
          if (result.ok) expect(parseDefinition(result.file.definition).ok).toBe(true);
        },
      ),
      { numRuns: runs(300) },
    );
  });
});

describe('links that carry their scenario', () => {
  it('round trip: definition -> link -> definition is the identity (property)', async () => {
    await fc.assert(
      fc.asyncProperty(definitions, fc.integer({ min: 0, max: 0xffff_ffff }), async (definition, seed) => {
        const encoded = await encodeDefinitionPayload(definition);
        if (!encoded.ok) return;
        const hash = formatRunHash(definition.id, definition.variants[0].id, seed, '', null, { definitionPayload: encoded.payload });
        expect(parseRunLink(hash, SCENARIOS)).toEqual({ kind: 'custom', hash: hash.slice(1) });
        const back = await parseDefinitionLink(hash);
        expect(back.kind).toBe('ok');
        if (back.kind !== 'ok') return;
        expect(back.custom.definition).toEqual(definition);
        expect(back.link).toMatchObject({ scenarioId: definition.id, variantId: definition.variants[0].id, seed });
      }),
      { numRuns: runs(40) },
    );
  });

  it('keeps old links as they were: a lesson link carries no definition', () => {
    const hash = formatRunHash('get-then-del', 'lua', 1, 'A A', null);
    expect(hash).toBe('#/v1/get-then-del/lua?seed=1&s=A.A');
    expect(parseRunLink(hash, SCENARIOS).kind).toBe('ok');
  });

  it(`makes no payload over ${definitionLinkCharsMax} characters, and refuses one on the way in`, async () => {
    // Random text does not compress: a script of it makes the definition too large for a link.
    let x = 12345;
    const noise = Array.from({ length: 60_000 }, () => {
      // xorshift32: text that does not compress.
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
      return String.fromCharCode(48 + ((x >>> 0) % 75));
    }).join('');
    const big = setScriptSource(base, 'lua', 'noise', `return ${JSON.stringify(noise)}`);
    const encoded = await encodeDefinitionPayload(big);
    expect(encoded.ok).toBe(false);
    expect(!encoded.ok && encoded.chars).toBeGreaterThan(definitionLinkCharsMax);
    const refused = await decodeDefinitionPayload('A'.repeat(definitionLinkCharsMax + 1));
    expect(!refused.ok && refused.problems[0].message).toMatch(/at most 32000 are read/);
  });

  it('a small payload that inflates past the definition bound is stopped, not expanded', async () => {
    const zeros = new Uint8Array(4_000_000);
    const packed = new Uint8Array(await new Response(new Blob([zeros]).stream().pipeThrough(new CompressionStream('deflate-raw'))).arrayBuffer());
    const payload = btoa(String.fromCharCode(...packed)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
    expect(payload.length).toBeLessThan(definitionLinkCharsMax);
    const result = await decodeDefinitionPayload(payload);
    expect(!result.ok && result.problems[0].message).toMatch(/expands past 1048576 characters/);
  });

  it('random, truncated and corrupted links give an error with a reason or a valid scenario (fuzz)', async () => {
    const encoded = await encodeDefinitionPayload(base);
    if (!encoded.ok) throw new Error('the lesson should fit in a link');
    const good = formatRunHash(base.id, 'lua', 1, 'A A', null, { definitionPayload: encoded.payload });
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.string().map((s) => `#/v1/x/y?def=${s}`),
          fc.nat({ max: good.length }).map((n) => good.slice(0, n)),
          fc.tuple(fc.nat({ max: good.length - 1 }), fc.constantFrom('A', '_', '-', '%', '&', '=', '0')).map(([at, c]) => good.slice(0, at) + c + good.slice(at + 1)),
          fc.string().map((s) => `${good}&${s}`),
        ),
        async (hash) => {
          const parsed = parseRunLink(hash, SCENARIOS);
          if (parsed.kind !== 'custom') return;
          const result = await parseDefinitionLink(parsed.hash);
          if (result.kind === 'error') {
            expect(result.error.reason).toMatch(/^[a-z-]+$/);
            expect(result.error.detail.length).toBeGreaterThan(0);
          } else {
            expect(parseDefinition(result.custom.definition).ok).toBe(true);
          }
        },
      ),
      { numRuns: runs(300) },
    );
  });

  it('a link whose path names another scenario than the one it carries is refused', async () => {
    const encoded = await encodeDefinitionPayload(base);
    if (!encoded.ok) throw new Error('fits');
    const result = await parseDefinitionLink(formatRunHash('plain-del', 'lua', 1, '', null, { definitionPayload: encoded.payload }));
    expect(result.kind === 'error' && result.error.detail).toMatch(/names scenario "plain-del" but carries "get-then-del"/);
  });
});
