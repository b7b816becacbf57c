import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JobQueue } from '../../src/ui/worker/job-queue';

type Name = 'a' | 'b' | 'c';
const NAMES: readonly Name[] = ['a', 'b', 'c'];

/** Loaders that resolve (or fail) only when the test says so. */
function controlledLoaders() {
  const pending = new Map<Name, { resolve: (handler: Name) => void; reject: (error: Error) => void }>();
  const calls: Name[] = [];
  const loaders = Object.fromEntries(
    NAMES.map((name) => [
      name,
      () => {
        calls.push(name);
        return new Promise<Name>((resolve, reject) => pending.set(name, { resolve, reject }));
      },
    ]),
  ) as Record<Name, () => Promise<Name>>;
  return { loaders, pending, calls };
}

const settle = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

describe('JobQueue: handlers loaded on demand, messages in the order they came', () => {
  it('delivers in push order whatever order the handlers load in, and loads each handler once', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom(...NAMES), { minLength: 1, maxLength: 12 }),
        fc.array(fc.constantFrom(...NAMES), { minLength: 3, maxLength: 3 }),
        async (pushes, resolveOrder) => {
          const { loaders, pending, calls } = controlledLoaders();
          const delivered: string[] = [];
          const queue = new JobQueue<Name, Name>(loaders, (error) => {
            throw error;
          });
          pushes.forEach((name, i) => queue.push(name, (handler) => delivered.push(`${i}:${handler}`)));
          for (const name of [...resolveOrder, ...NAMES]) {
            pending.get(name)?.resolve(name);
            await settle();
          }
          expect(delivered).toEqual(pushes.map((name, i) => `${i}:${name}`));
          expect(new Set(calls).size).toBe(calls.length);
        },
      ),
      { seed: 20261204, numRuns: 200 },
    );
  });

  it('delivers at once, in the same task, once every handler needed has loaded', async () => {
    const { loaders, pending } = controlledLoaders();
    const delivered: string[] = [];
    const queue = new JobQueue<Name, Name>(loaders, () => undefined);
    queue.push('a', (handler) => delivered.push(handler));
    expect(delivered).toEqual([]);
    pending.get('a')!.resolve('a');
    await settle();
    queue.push('a', (handler) => delivered.push(`${handler} again`));
    expect(delivered).toEqual(['a', 'a again']);
  });

  it('a message waits behind an earlier one whose handler still loads, even if its own handler is there', async () => {
    const { loaders, pending } = controlledLoaders();
    const delivered: string[] = [];
    const queue = new JobQueue<Name, Name>(loaders, () => undefined);
    queue.push('a', () => delivered.push('a1'));
    pending.get('a')!.resolve('a');
    await settle();
    queue.push('b', () => delivered.push('b1'));
    queue.push('a', () => delivered.push('a2'));
    expect(delivered).toEqual(['a1']);
    pending.get('b')!.resolve('b');
    await settle();
    expect(delivered).toEqual(['a1', 'b1', 'a2']);
  });

  it('a handler that fails to load is reported; its messages are dropped and the others still arrive in order', async () => {
    const { loaders, pending } = controlledLoaders();
    const delivered: string[] = [];
    const errors: unknown[] = [];
    const queue = new JobQueue<Name, Name>(loaders, (error) => errors.push(error));
    queue.push('a', () => delivered.push('a1'));
    queue.push('b', () => delivered.push('b1'));
    pending.get('b')!.resolve('b');
    await settle();
    expect(delivered).toEqual([]);
    pending.get('a')!.reject(new Error('chunk a failed'));
    await settle();
    expect(errors.map((e) => (e as Error).message)).toEqual(['chunk a failed']);
    expect(delivered).toEqual(['b1']);
  });
});
