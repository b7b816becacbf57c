// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TraceEvent } from '../../src/engine/trace';
import { Simulation } from '../../src/engine/simulation';
import { findScenario } from '../../src/scenarios';
import { stressSimulation } from '../../dev/stress';
import { exportFileName, renderRunSvg, serializeSvg } from '../../src/ui/views/export';
import { SequenceView } from '../../src/ui/views/SequenceView';
import { TimelineView } from '../../src/ui/views/TimelineView';
import type { RunViewProps } from '../../src/ui/views/types';

// Goal: the views expose the automation contract (test ids, accessible names, jump on click and
// Enter), dim what lies after the cursor, export a well-formed standalone SVG holding the marks'
// text, and cost the same per step in a 10,000-event run as in a short one (counted in DOM nodes
// and DOM mutations per step, never in time).

afterEach(cleanup);

const scenario = findScenario('get-then-del');

function runProps(sim: Simulation, onJump: (step: number) => void = () => {}): RunViewProps {
  const tokenOwners: Record<string, string> = {};
  for (const c of sim.clients) if (c.vars.token) tokenOwners[c.vars.token] = c.id;
  return {
    events: sim.allEvents(),
    eventCount: sim.allEvents().length,
    // A view extends within a generation: each cut of the timeline is a new one.
    generation: sim.cutCount,
    clientIds: sim.clients.map((c) => c.id),
    cursorStep: sim.cursor,
    nowMs: sim.nowMs,
    lang: 'en',
    tokenOwners,
    onJump,
  };
}

function story(variantId: string): Simulation {
  const sim = new Simulation(scenario, { variantId });
  sim.applySchedule(scenario.defaultSchedule);
  return sim;
}

function commandsOf(events: readonly TraceEvent[]) {
  return events.filter((e): e is Extract<TraceEvent, { kind: 'command' }> => e.kind === 'command');
}

describe('TimelineView', () => {
  // A viewport wide enough for the whole default run (happy-dom lays nothing out: width 0).
  beforeEach(() => {
    vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(4000);
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('draws a row per client and one for Redis, a mark per command, the violation at its step', () => {
    const sim = story('get-then-del');
    render(<TimelineView {...runProps(sim)} />);
    expect(screen.getByTestId('timeline')).toBeTruthy();
    for (const id of ['A', 'B', 'redis']) expect(screen.getByTestId(`timeline.row.${id}`)).toBeTruthy();
    for (const c of commandsOf(sim.allEvents())) {
      const mark = screen.getByTestId(`timeline.mark.${c.seq}`);
      expect(mark.getAttribute('role')).toBe('button');
      expect(mark.getAttribute('tabindex')).toBe('0');
      // The mark sits in its client's row.
      expect(screen.getByTestId(`timeline.row.${c.clientId}`).contains(mark)).toBe(true);
    }
    const del = commandsOf(sim.allEvents()).find((c) => c.argv[0] === 'DEL')!;
    expect(screen.getByTestId(`timeline.mark.${del.seq}`).getAttribute('aria-label')).toBe(`Step ${del.step + 1}, A: DEL lock → 1`);
    const violation = sim.trace().violations[0];
    const flag = screen.getByTestId(`timeline.violation.${violation.seq}`);
    expect(flag.getAttribute('aria-label')).toContain("A deleted B's lock");
  });

  it('names tokens by owner, never by value', () => {
    const sim = story('get-then-del');
    const { container } = render(<TimelineView {...runProps(sim)} />);
    const get = commandsOf(sim.allEvents()).find((c) => c.argv[0] === 'GET')!;
    expect(screen.getByTestId(`timeline.mark.${get.seq}`).getAttribute('aria-label')).toBe(`Step ${get.step + 1}, A: GET lock → <A's token>`);
    for (const c of sim.clients) expect(container.innerHTML).not.toContain(c.vars.token as string);
  });

  it('jumps to just after a mark on click and on Enter', () => {
    const sim = story('get-then-del');
    const onJump = vi.fn();
    render(<TimelineView {...runProps(sim, onJump)} />);
    const [first, second] = commandsOf(sim.allEvents());
    fireEvent.click(screen.getByTestId(`timeline.mark.${second.seq}`));
    expect(onJump).toHaveBeenLastCalledWith(second.step + 1);
    fireEvent.keyDown(screen.getByTestId(`timeline.mark.${first.seq}`), { key: 'Enter' });
    expect(onJump).toHaveBeenLastCalledWith(first.step + 1);
    const violation = sim.trace().violations[0];
    fireEvent.click(screen.getByTestId(`timeline.violation.${violation.seq}`));
    expect(onJump).toHaveBeenLastCalledWith(violation.step + 1);
  });

  it('marks steps before the cursor past, the last one current, the rest future', () => {
    const sim = story('get-then-del');
    sim.seek(2);
    const { rerender } = render(<TimelineView {...runProps(sim)} />);
    const states = () => commandsOf(sim.allEvents()).map((c) => [c.step, screen.getByTestId(`timeline.mark.${c.seq}`).getAttribute('data-state')]);
    expect(states().length).toBeGreaterThan(3);
    for (const [step, state] of states()) expect(state).toBe((step as number) < 1 ? 'past' : step === 1 ? 'current' : 'future');
    sim.seek(sim.length);
    rerender(<TimelineView {...runProps(sim)} />);
    for (const [step, state] of states()) expect(state).toBe(step === sim.length - 1 ? 'current' : 'past');
  });
});

describe('TimelineView zoom', () => {
  beforeEach(() => {
    vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(1200);
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('zooms in, out and to fit with named buttons and with +, - and 0 on the timeline', () => {
    const sim = story('get-then-del');
    render(<TimelineView {...runProps(sim)} />);
    const timeline = screen.getByTestId('timeline');
    const zoom = () => Number(timeline.getAttribute('data-zoom'));
    const start = zoom();
    fireEvent.click(screen.getByRole('button', { name: 'Zoom in' }));
    expect(zoom()).toBeCloseTo(start * 1.5, 2);
    fireEvent.click(screen.getByRole('button', { name: 'Zoom out' }));
    fireEvent.click(screen.getByRole('button', { name: 'Zoom out' }));
    expect(zoom()).toBeCloseTo(start / 1.5, 2);
    fireEvent.keyDown(timeline, { key: '+' });
    expect(zoom()).toBeCloseTo(start, 2);
    fireEvent.keyDown(timeline, { key: '-' });
    fireEvent.keyDown(timeline, { key: '-' });
    fireEvent.keyDown(timeline, { key: '-' });
    fireEvent.keyDown(timeline, { key: '-' });
    fireEvent.keyDown(timeline, { key: '-' });
    // Never below the smallest zoom, and the button says so.
    expect(zoom()).toBeCloseTo(0.25, 3);
    expect((screen.getByRole('button', { name: 'Zoom out' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Zoom to fit the run' }));
    expect(zoom()).toBeCloseTo(start, 2);
  });
});

describe('SequenceView', () => {
  it('draws a message per command with its reply, named like the timeline, and jumps on click', () => {
    const sim = story('lua');
    const onJump = vi.fn();
    render(<SequenceView {...runProps(sim, onJump)} />);
    expect(screen.getByTestId('sequence')).toBeTruthy();
    const commands = commandsOf(sim.allEvents());
    for (const c of commands) expect(screen.getByTestId(`sequence.message.${c.seq}`)).toBeTruthy();
    const evalCommand = commands.find((c) => c.argv[0] === 'EVAL')!;
    const message = screen.getByTestId(`sequence.message.${evalCommand.seq}`);
    // The Lua source is summarized; the token is named.
    expect(message.getAttribute('aria-label')).toBe(`Step ${evalCommand.step + 1}, A: EVAL ‹Lua script› 1 lock <A's token> → 1`);
    fireEvent.keyDown(message, { key: ' ' });
    expect(onJump).toHaveBeenLastCalledWith(evalCommand.step + 1);
  });

  it('shows the clock jumps and the violation of get-then-del', () => {
    const sim = story('get-then-del');
    const { container } = render(<SequenceView {...runProps(sim)} />);
    expect(container.textContent).toContain('t = 6000 ms');
    // The advance runs to each due time on the way: the lease's expiry at 5001, then 6000.
    expect(container.textContent).toContain('t = 5001 ms');
    expect(container.textContent).toContain('+3001 ms');
    expect(container.textContent).toContain('process paused 5 s');
    const violation = sim.trace().violations[0];
    expect(screen.getByTestId(`sequence.violation.${violation.seq}`).textContent).toContain("A deleted B's lock");
  });
});

describe('export', () => {
  it('serializes the timeline as a well-formed standalone SVG that holds the marks and the violation', () => {
    const sim = story('get-then-del');
    const { container } = render(<TimelineView {...runProps(sim)} />);
    const text = serializeSvg(container.querySelector('svg')!);
    const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
    expect(doc.getElementsByTagName('parsererror')).toHaveLength(0);
    const root = doc.documentElement;
    expect(root.getAttribute('xmlns')).toBe('http://www.w3.org/2000/svg');
    expect(root.getAttribute('width')).toBe(root.getAttribute('viewBox')!.split(' ')[2]);
    expect(root.textContent).toContain('DEL lock');
    expect(root.textContent).toContain("<A's token>");
    expect(root.textContent).toContain("A deleted B's lock");
    // Standalone and inert: no focus stops, styles inlined (no class-only colouring left to the page).
    expect(text).not.toContain('tabindex');
    const band = doc.querySelector('.lsv-holder-band');
    expect(band?.getAttribute('style') ?? '').toMatch(/fill:/);
  });

  it('renders the whole run for export, nothing culled', () => {
    const sim = story('lua');
    const text = renderRunSvg('sequence', runProps(sim));
    const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
    expect(doc.getElementsByTagName('parsererror')).toHaveLength(0);
    for (const c of commandsOf(sim.allEvents())) expect(doc.querySelector(`[data-testid="sequence.message.${c.seq}"]`)).not.toBeNull();
    // The hidden host is gone afterwards.
    expect(document.body.querySelectorAll('.lsv-view')).toHaveLength(0);
  });

  it('names files from a safe base', () => {
    expect(exportFileName('lockstep-get-then-del-lua', 'timeline', 'svg')).toBe('lockstep-get-then-del-lua-timeline.svg');
    expect(exportFileName('../we ird/<x>', 'sequence', 'png')).toBe('we-ird-x-sequence.png');
    expect(exportFileName('', 'timeline', 'png')).toBe('lockstep-timeline.png');
  });
});

describe('cost per step does not grow with the run', () => {
  /** DOM nodes, and DOM mutations per step over `stepCount` steps from `fromStep`. */
  function measure(Component: typeof TimelineView | typeof SequenceView, props: RunViewProps, fromStep: number, stepCount: number) {
    const { container, rerender } = render(<Component {...props} cursorStep={fromStep} />);
    let mutations = 0;
    const observer = new MutationObserver(() => {});
    observer.observe(container, { subtree: true, childList: true, attributes: true, characterData: true });
    for (let i = 1; i <= stepCount; i++) {
      act(() => rerender(<Component {...props} cursorStep={fromStep + i} />));
      mutations += observer.takeRecords().length;
    }
    observer.disconnect();
    const nodes = container.querySelectorAll('*').length;
    cleanup();
    return { nodes, mutationsPerStep: mutations / stepCount };
  }

  const long = stressSimulation(3_300, 7);
  const longProps = runProps(long);
  // The same run cut after 80 steps: identical around the cursor, 1% of the length.
  const shortEvents = longProps.events.filter((e) => e.step < 80);
  const shortProps: RunViewProps = { ...longProps, events: shortEvents, eventCount: shortEvents.length };

  it(`holds for the timeline (${longProps.events.length} events against ${shortProps.events.length})`, () => {
    expect(longProps.events.length).toBeGreaterThan(10_000);
    const short = measure(TimelineView, shortProps, 20, 20);
    const longRun = measure(TimelineView, longProps, 20, 20);
    if (process.env.LOCKSTEP_PRINT_COST) console.log('timeline', { short, longRun });
    expect(short.mutationsPerStep).toBeGreaterThan(0);
    expect(longRun.nodes).toBeLessThan(short.nodes * 1.5 + 200);
    expect(longRun.mutationsPerStep).toBeLessThan(short.mutationsPerStep * 1.5 + 20);
    // Culling: far fewer marks in the DOM than commands in the run.
    expect(longRun.nodes).toBeLessThan(4_000);
  });

  it('draws the timeline as wide as the view and only the marks of its window, whatever the zoom', () => {
    vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(1200);
    const { container } = render(<TimelineView {...longProps} cursorStep={3_000} />);
    const svg = container.querySelector('svg')!;
    // The drawing does not grow with the run: it is the view's width, not the run's.
    expect(Number(svg.getAttribute('width'))).toBeLessThanOrEqual(1200);
    const markCount = () => container.querySelectorAll('[data-testid^="timeline.mark."]').length;
    const atOne = markCount();
    expect(atOne).toBeGreaterThan(0);
    for (let i = 0; i < 4; i++) fireEvent.click(screen.getByRole('button', { name: 'Zoom out' }));
    expect(screen.getByTestId('timeline').getAttribute('data-zoom')).toBe('0.250');
    expect(Number(svg.getAttribute('width'))).toBeLessThanOrEqual(1200);
    // The drawn window is the view plus 600 px each side (at most 3,000 px in all); a command's
    // slot is 120 px at zoom 1, 30 px at 0.25: at most 100 commands' marks, plus the window's edges.
    const zoomedOut = markCount();
    expect(zoomedOut).toBeGreaterThan(atOne);
    expect(zoomedOut).toBeLessThanOrEqual(3_000 / 30 + 20);
    vi.restoreAllMocks();
  });

  it('cuts every shape to the drawn window, so no band, shade or line is as wide as the run', () => {
    vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(1200);
    const { container } = render(<TimelineView {...longProps} cursorStep={3_000} />);
    const runWidthPx = Number(container.querySelector<HTMLElement>('.lsv-track')!.style.width.replace('px', ''));
    expect(runWidthPx).toBeGreaterThan(100_000);
    const widths = [...container.querySelectorAll('svg rect, svg line')].map((el) =>
      el.tagName === 'rect' ? Number(el.getAttribute('width')) : Math.abs(Number(el.getAttribute('x2')) - Number(el.getAttribute('x1'))),
    );
    expect(widths.length).toBeGreaterThan(50);
    // The window (view plus 600 px each side, snapped to 300 px) plus 40 px each side.
    expect(Math.max(...widths)).toBeLessThanOrEqual(1200 + 2 * 600 + 2 * 300 + 2 * 40);
    vi.restoreAllMocks();
  });

  it('holds for the sequence diagram', () => {
    const short = measure(SequenceView, shortProps, 20, 20);
    const longRun = measure(SequenceView, longProps, 20, 20);
    if (process.env.LOCKSTEP_PRINT_COST) console.log('sequence', { short, longRun });
    expect(short.mutationsPerStep).toBeGreaterThan(0);
    expect(longRun.nodes).toBeLessThan(short.nodes * 1.5 + 200);
    expect(longRun.mutationsPerStep).toBeLessThan(short.mutationsPerStep * 1.5 + 20);
    expect(longRun.nodes).toBeLessThan(4_000);
  });
});
