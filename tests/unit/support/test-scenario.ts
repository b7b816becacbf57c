import type { ClientSpec, Scenario, VariantSpec } from '../../../src/engine/scenario';

const text = (s: string) => ({ en: s, zh: s });

/** A one-variant scenario for engine tests: the given clients, lock key `lock`, ttlMs 5000. */
export function testScenario(
  clients: ClientSpec[],
  extra: Partial<Omit<Scenario, 'variants' | 'defaultVariant'>> & { variants?: VariantSpec[] } = {},
): Scenario {
  const variants = extra.variants ?? [
    { id: 'only', title: text('only'), summary: text('only'), clients, expect: { violations: [], absent: [] } },
  ];
  return {
    id: 'test',
    title: text('test'),
    summary: text('test'),
    lesson: text('test'),
    params: { lockKey: 'lock', ttlMs: '5000' },
    lockKey: 'lock',
    defaultSchedule: '',
    ...extra,
    variants,
    defaultVariant: variants[0].id,
  };
}
