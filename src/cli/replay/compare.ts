import type { Reply } from '../../engine/redis/reply';
import type { RealReply } from './connection';

/**
 * Does a real reply say what the simulated one said? Through ioredis, status and bulk strings
 * both arrive as text, so their text is compared, not their type (the differential suite,
 * tests/differential, checks types). A duration reply (PTTL) is compared on the scaled clock: the
 * real value times the scale must be within the tolerance (real ms) of the simulated one.
 */
/** 'emulated': nothing was sent (a request the simulation lost on its way); the row shows the client's side. */
export type Match = 'same' | 'near' | 'different' | 'emulated';

export function compareReplies(sim: Reply, real: RealReply, duration: { readonly scale: number; readonly toleranceMs: number } | null): Match {
  if (duration !== null && sim.type === 'integer' && real.type === 'integer' && Number(sim.value) >= 0 && Number(real.value) >= 0) {
    if (sim.value === real.value && duration.scale === 1) return 'same';
    const expectedRealMs = Number(sim.value) / duration.scale;
    return Math.abs(Number(real.value) - expectedRealMs) <= duration.toleranceMs ? 'near' : 'different';
  }
  return sameReply(sim, real) ? 'same' : 'different';
}

function sameReply(sim: Reply, real: RealReply): boolean {
  switch (sim.type) {
    case 'status':
    case 'bulk':
      return real.type === 'string' && real.value === sim.value;
    case 'integer':
      return real.type === 'integer' && real.value === sim.value;
    case 'nil':
      return real.type === 'nil';
    case 'error':
      return real.type === 'error' && real.value === sim.value;
    case 'array':
      return real.type === 'array' && real.value.length === sim.value.length && sim.value.every((item, i) => sameReply(item, real.value[i]));
  }
}

/**
 * A real reply as a simulated one, for display next to it (formatReplyShort): a string is shown
 * as a status where the simulation answered a status, else as a bulk string.
 */
export function asSimShape(real: RealReply, sim: Reply | null): Reply {
  switch (real.type) {
    case 'string':
      return sim !== null && sim.type === 'status' ? { type: 'status', value: real.value } : { type: 'bulk', value: real.value };
    case 'integer':
    case 'error':
      return real;
    case 'nil':
      return { type: 'nil' };
    case 'array':
      return { type: 'array', value: real.value.map((item, i) => asSimShape(item, sim !== null && sim.type === 'array' ? (sim.value[i] ?? null) : null)) };
  }
}
