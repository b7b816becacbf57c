/**
 * Hosted clients: clients whose program is written while they run, by code outside the engine (an
 * engineer's async function driven by src/api/async). Their program is an action log that grows:
 * each Redis command, sleep or critical-section mark the code reaches is appended as a plain step,
 * with its values literal (no `${}` templates). The engine stays synchronous: when a hosted client
 * must run past the end of its log, the step rule throws HostPending; the Simulation rebuilds the
 * world as it was before the choice, the host lets the code run (microtasks only) until it has
 * appended its next action, and the choice is applied again. Replies reach the code through
 * `ClientHost.reply`, in the order the engine produces them.
 */
import type { Step } from './program';
import type { Reply } from './redis/reply';

export interface ClientHost {
  /**
   * A reply reached hosted client `clientId` for its step at `pc`, at virtual time `atMs`. A choice
   * that is applied again after a HostPending produces the same replies again: the host keeps the first.
   */
  reply(clientId: string, pc: number, reply: Reply, atMs: number): void;
  /** The action log of an activity a hosted client created (a `spawn` step), or undefined when there is none. */
  program(clientId: string): readonly Step[] | undefined;
}

/** A hosted client must run past the end of its action log: its code has not reached its next action yet. */
export class HostPending extends Error {
  override name = 'HostPending';
  constructor(
    readonly clientId: string,
    /** The index of the action the engine needs (the log's length when thrown). */
    readonly pc: number,
    /** The virtual time at which the client's code runs on. */
    readonly nowMs: number,
  ) {
    super(`hosted client ${clientId} has not reached its action ${pc} yet`);
  }
}
