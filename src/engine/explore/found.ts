import { formatSchedule, type Choice } from '../schedule';
import type { FoundViolation } from './result';

/**
 * The first violation of each kind a search looks for, and when it has found enough. Breadth-first
 * searches (search.ts, and the replaying one, replay.ts) share it: the first found of a kind is a
 * shortest one, and the list reads shortest first.
 */
export class FirstFound<K extends string> {
  private readonly found = new Map<string, FoundViolation<K>>();

  /**
   * @param wanted What may be found, by id (a kind; the Node API adds `property:<name>`).
   * @param stopAt 'first': enough once anything is found; 'all': once every id is; 'never'.
   */
  constructor(
    private readonly wanted: ReadonlySet<string>,
    private readonly stopAt: 'first' | 'all' | 'never',
  ) {}

  has(id: string): boolean {
    return this.found.has(id);
  }

  get size(): number {
    return this.found.size;
  }

  /** Records `finding` under `id` when it is looked for and the first of its id; true when it was. */
  note(id: string, finding: FoundViolation<K>): boolean {
    if (this.found.has(id) || !this.wanted.has(id)) return false;
    this.found.set(id, finding);
    return true;
  }

  /** Whether the search may stop: it found what it looked for. */
  get enough(): boolean {
    return (this.stopAt === 'first' && this.found.size > 0) || (this.stopAt === 'all' && this.found.size === this.wanted.size);
  }

  /** Shortest first (a stable sort: equal lengths keep the order they were found in). */
  list(): FoundViolation<K>[] {
    return [...this.found.values()].sort((a, b) => a.steps - b.steps);
  }
}

/** A finding at the end of `choices`: the schedule, its canonical text and its length. */
export function foundAt<K extends string>(finding: { readonly kind: K; readonly property?: string; readonly message: string; readonly clients: readonly string[]; readonly atMs: number }, choices: readonly Choice[]): FoundViolation<K> {
  return {
    kind: finding.kind,
    ...(finding.property === undefined ? {} : { property: finding.property }),
    choices,
    schedule: formatSchedule(choices),
    steps: choices.length,
    message: finding.message,
    clients: finding.clients,
    atMs: finding.atMs,
  };
}
