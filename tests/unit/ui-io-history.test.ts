// Goal: a recorded history imported on the page is recognised by its first lines, checked by
// src/history (on the calling thread here; a worker on the page) and kept read-only for its dialog:
// the verdict with its evidence, the lanes per client, the Redis row; a scenario file is left to the
// scenario import, a file over the bound is refused unread, and the run on screen never changes.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { memoryMyScenarioStorage } from '../../src/ui/share/my-scenarios-storage';
import { createSimStore } from '../../src/ui/store/create-sim-store';
import { historyFileBytesMax } from '../../src/ui/store/limits';
import { sniffHistoryFormat } from '../../src/ui/worker/history-check-protocol';
import { HistoryReading } from '../../src/ui/worker/history-check';

const FOREIGN = readFileSync(new URL('../e2e/fixtures/foreign-release.jsonl', import.meta.url), 'utf8');
const MONITOR = [
  '1700000000.000100 [0 127.0.0.1:5001] "SET" "lock" "a1" "NX" "PX" "100"',
  '1700000000.200000 [0 127.0.0.1:5002] "SET" "lock" "b1" "NX" "PX" "100"',
  '1700000000.250000 [0 127.0.0.1:5001] "DEL" "lock"',
].join('\n');

function page() {
  return createSimStore({ run: { scenarioId: 'get-then-del' }, myScenarioStorage: memoryMyScenarioStorage(null) });
}

function file(text: string, name: string): File {
  return new File([text], name);
}

describe('history import: recognising the file', () => {
  it('tells JSON lines and MONITOR text from a scenario file by the first lines', () => {
    expect(sniffHistoryFormat(FOREIGN.slice(0, 100))).toBe('jsonl');
    expect(sniffHistoryFormat(`\n${MONITOR}`)).toBe('monitor');
    expect(sniffHistoryFormat('OK\n' + MONITOR)).toBe('monitor');
    expect(sniffHistoryFormat('{\n  "lockstep": "scenario",')).toBeNull();
    expect(sniffHistoryFormat('{"format":"lockstep-scenario","version":1}')).toBeNull();
    expect(sniffHistoryFormat('')).toBeNull();
  });

  it('reads the same report whatever the chunks are cut at', () => {
    const whole = new HistoryReading('h.jsonl', 'jsonl');
    whole.push(FOREIGN);
    const chunked = new HistoryReading('h.jsonl', 'jsonl');
    for (let i = 0; i < FOREIGN.length; i += 7) chunked.push(FOREIGN.slice(i, i + 7));
    expect(chunked.finish()).toEqual(whole.finish());
  });

  it('skips a line over the bound, whole or across chunks, with its number, and keeps counting lines', () => {
    const lines = FOREIGN.trimEnd().split('\n');
    const long = `{"client":"x","argv":["SET","k","${'v'.repeat(1 << 20)}"]}`;
    const text = [lines[0], long, ...lines.slice(1)].join('\n');
    for (const size of [text.length, 65_536]) {
      const reading = new HistoryReading('long.jsonl', 'jsonl');
      for (let i = 0; i < text.length; i += size) reading.push(text.slice(i, i + size));
      const report = reading.finish();
      expect(report.verdict.problems.map((p) => p.line)).toEqual([2]);
      expect(report.verdict.problems[0].message).toContain(`${long.length} characters`);
      // The foreign release moved down one line with the long line before it.
      expect(report.verdict.violations.find((v) => v.kind === 'foreign-release')?.evidence.map((e) => e.line)).toEqual([5, 6]);
    }
  });
});

describe('history import: the store', () => {
  it('checks a history with a foreign release: verdict, evidence, lanes and the Redis row; the run is unchanged', async () => {
    const store = page();
    const before = { scenarioId: store.getState().scenarioId, schedule: store.getState().schedule };
    expect(await store.getState().ioOpenHistory(file(FOREIGN, 'incident.jsonl'))).toBe(true);
    const h = store.getState().ioHistory;
    expect(h.status).toBe('done');
    expect(h.fileName).toBe('incident.jsonl');
    const report = h.report!;
    expect(report.format).toBe('jsonl');
    const foreign = report.verdict.violations.find((v) => v.kind === 'foreign-release');
    expect(foreign?.certainty).toBe('certain');
    expect(foreign?.clients).toEqual(['worker-a', 'worker-b']);
    // Lines count the header: B's SET is line 4, A's DEL line 5.
    expect(foreign?.evidence.map((e) => e.line)).toEqual([4, 5]);
    expect(report.events.map((e) => [e.line, e.client, e.label, e.onLock])).toEqual([
      [2, 'worker-a', 'SET lock', true],
      [3, 'worker-a', 'GET report', false],
      [4, 'worker-b', 'SET lock', true],
      [5, 'worker-a', 'DEL lock', true],
      [6, 'worker-b', 'SET report', false],
    ]);
    expect(report.verdict.clients.map((c) => c.client)).toEqual(['worker-a', 'worker-b']);
    expect({ scenarioId: store.getState().scenarioId, schedule: store.getState().schedule }).toEqual(before);
    store.getState().ioCloseHistory();
    expect(store.getState().ioHistory.status).toBe('idle');
  });

  it('checks MONITOR text, replies worked out on the simulated Redis, and says what it cannot know', async () => {
    const store = page();
    expect(await store.getState().ioOpenHistory(file(MONITOR, 'monitor.txt'))).toBe(true);
    const report = store.getState().ioHistory.report!;
    expect(report.format).toBe('monitor');
    expect(report.verdict.violations.map((v) => v.kind)).toContain('foreign-release');
    expect(report.verdict.unknowns.length).toBeGreaterThan(0);
    expect(report.events.map((e) => e.client)).toEqual(['127.0.0.1:5001', '127.0.0.1:5002', '127.0.0.1:5001']);
  });

  it('leaves a scenario file to the scenario import and refuses a history over the bound unread', async () => {
    const store = page();
    expect(await store.getState().ioOpenHistory(file('{"format":"lockstep-scenario"}', 'mine.json'))).toBe(false);
    expect(store.getState().ioHistory.status).toBe('idle');
    const head = FOREIGN.split('\n')[0];
    // A Blob whose size is over the bound: only its head is read.
    const big = { name: 'huge.jsonl', size: historyFileBytesMax + 1, slice: () => new Blob([head]), text: () => Promise.reject(new Error('read whole')) };
    expect(await store.getState().ioOpenHistory(big as unknown as File)).toBe(true);
    expect(store.getState().ioHistory).toMatchObject({ status: 'too-big', fileName: 'huge.jsonl', size: historyFileBytesMax + 1, report: null });
  });
});
