import type { ServerAddress } from './address';
import type { RealConnection, RealReply } from './connection';

/**
 * A replay on a Redis Cluster (--cluster): every key the replay writes carries the key prefix's
 * hash tag (`lockstep:{1f2e3d4c}:lock`), so all of them hash to one slot and a script's KEYS
 * never cross slots. The replay asks the node it was given which master serves that slot and
 * sends everything there, over plain connections: a slot that moves during the run answers MOVED,
 * which the report shows as a divergence rather than the replay following it.
 */

/** The hash tag Redis Cluster hashes a key by: the text between the first `{` and the next `}`, if not empty. */
export function hashTagOf(key: string): string | null {
  const open = key.indexOf('{');
  if (open < 0) return null;
  const close = key.indexOf('}', open + 1);
  if (close < 0 || close === open + 1) return null;
  return key.slice(open + 1, close);
}

export class ClusterRefusal extends Error {
  override name = 'ClusterRefusal';
}

/** Whether the server says it runs in cluster mode (INFO cluster: cluster_enabled:1). */
export async function isClusterNode(control: RealConnection): Promise<boolean> {
  const info = await control.send(['INFO', 'cluster']);
  return info.type === 'string' && /^cluster_enabled:1\s*$/m.test(info.value);
}

/** Every master of the cluster with the slot ranges it serves (CLUSTER SLOTS), as addresses with the seed's credentials and scheme. */
export async function clusterMasters(control: RealConnection, seed: ServerAddress): Promise<{ from: number; to: number; address: ServerAddress }[]> {
  const info = await control.send(['CLUSTER', 'INFO']);
  if (info.type !== 'string' || !/^cluster_state:ok\s*$/m.test(info.value)) {
    throw new ClusterRefusal(`the cluster at ${seed.display} is not in state ok (CLUSTER INFO), so a slot may have no master`);
  }
  const slots = await control.send(['CLUSTER', 'SLOTS']);
  if (slots.type !== 'array') throw new ClusterRefusal(`CLUSTER SLOTS answered ${describe(slots)}`);
  const out: { from: number; to: number; address: ServerAddress }[] = [];
  for (const range of slots.value) {
    if (range.type !== 'array' || range.value.length < 3) continue;
    const [from, to, master] = range.value;
    if (from.type !== 'integer' || to.type !== 'integer' || master.type !== 'array') continue;
    const [host, port] = master.value;
    if (host?.type !== 'string' || port?.type !== 'integer') continue;
    const url = new URL(seed.url);
    url.hostname = host.value === '' ? url.hostname : host.value;
    url.port = port.value;
    const shown = new URL(seed.display);
    shown.hostname = url.hostname;
    shown.port = port.value;
    out.push({ from: Number(from.value), to: Number(to.value), address: { url: url.href, display: shown.href.replace(/\/$/, '') } });
  }
  return out;
}

/**
 * The master that serves the key prefix's slot, as an address with the seed's credentials and
 * scheme. Refuses a cluster that is not in state ok, or a slot no master serves.
 */
export async function clusterNodeFor(control: RealConnection, seed: ServerAddress, keyPrefix: string): Promise<{ address: ServerAddress; slot: number }> {
  const masters = await clusterMasters(control, seed);
  const slotReply = await control.send(['CLUSTER', 'KEYSLOT', keyPrefix]);
  if (slotReply.type !== 'integer') throw new ClusterRefusal(`CLUSTER KEYSLOT answered ${describe(slotReply)}`);
  const slot = Number(slotReply.value);
  const master = masters.find((m) => slot >= m.from && slot <= m.to);
  if (master) return { address: master.address, slot };
  throw new ClusterRefusal(`no master serves slot ${slot} (the key prefix's hash tag) in the cluster at ${seed.display}`);
}

function describe(reply: RealReply): string {
  return reply.type === 'error' || reply.type === 'string' ? reply.value : reply.type;
}
