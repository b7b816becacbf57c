import type { Simulation } from '../../src/engine/simulation';
import { scenarioById, type EngineSource } from '../engine/source';
import type { RunSpec } from './driver';

/**
 * Which control appends a step at the end of a run, decided by the engine the page was built
 * from (a Step button can be enabled for a client the engine will refuse, e.g. a hung one):
 * "Step X" for the first client whose step applies there (the preferred one first, then the
 * scenario's order), else "Advance". The plan mirrors the appends on its own Simulation, so it knows when the client can
 * no longer step and the run must be loaded again.
 */
export class AppendPlan {
  readonly control: string;
  private readonly clientId: string | null;
  private sim: Simulation;

  constructor(
    private readonly engine: EngineSource,
    private readonly spec: RunSpec,
    preferredClientId?: string,
  ) {
    this.sim = this.fresh();
    const ids = this.sim.clients.map((client) => client.id);
    const candidates = preferredClientId !== undefined && ids.includes(preferredClientId) ? [preferredClientId, ...ids.filter((id) => id !== preferredClientId)] : ids;
    this.clientId = candidates.find((id) => this.applies(id)) ?? null;
    this.control = this.clientId === null ? 'Advance' : `Step ${this.clientId}`;
    this.sim = this.fresh();
  }

  /** Mirrors one append; false when the client cannot step any more (load the run again, then `restart`). */
  next(): boolean {
    return this.clientId === null || this.applies(this.clientId);
  }

  restart(): void {
    this.sim = this.fresh();
  }

  private fresh(): Simulation {
    const sim = new this.engine.Simulation(scenarioById(this.engine, this.spec.scenario), { variantId: this.spec.variant, seed: this.spec.seed });
    sim.applySchedule(this.spec.schedule);
    return sim;
  }

  private applies(clientId: string): boolean {
    try {
      this.sim.apply({ kind: 'step', clientId });
      return true;
    } catch (error) {
      if (error instanceof Error && error.name === 'ChoiceError') return false;
      throw error;
    }
  }
}
