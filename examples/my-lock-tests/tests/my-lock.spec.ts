// My scenario on Lockstep's page: a definition of my own (two workers, a release that checks
// before it deletes), stepped through the page as a person would, with the fixture.
import { test, expect } from 'lockstep/playwright';

/** One worker: take the lock (SET NX PX), work 2 s, then release it with GET, compare, DEL. */
const worker = (id: string) => ({
  id,
  program: [
    { op: 'command', label: 'acquire', argv: ['SET', 'orders:lock', '${token}', 'NX', 'PX', '5000'], saveAs: 'acquired' },
    { op: 'if', when: { test: 'notNil', reply: 'acquired' }, goto: 'locked' },
    { op: 'end' },
    { op: 'enter', label: 'locked' },
    { op: 'work', durationMs: 2000 },
    { op: 'leave' },
    { op: 'command', argv: ['GET', 'orders:lock'], saveAs: 'current' },
    { op: 'if', when: { test: 'ne', left: '${current}', right: '${token}' }, goto: 'done' },
    { op: 'command', argv: ['DEL', 'orders:lock'], releases: true },
    { op: 'end', label: 'done' },
  ],
});

const myScenario = {
  version: 1,
  id: 'orders-lock',
  title: 'Orders lock',
  lockKey: 'orders:lock',
  defaultSchedule: 'A A A~5000 +4000 B +1000',
  variants: [{ id: 'get-then-del', title: 'GET, compare, DEL', clients: [worker('A'), worker('B')] }],
};

test('A pauses between its GET and its DEL, and deletes B\'s lock', async ({ lockstep }) => {
  await lockstep.open(myScenario, { schedule: '' });
  await lockstep.step('A'); // SET NX PX 5000: A holds the lock, then works 2 s
  await lockstep.step('A'); // t=2000: GET answers A's token
  await lockstep.stall('A', 5000); // a GC pause before the DEL
  await lockstep.advance(4000); // t=5001 the lock expires; t=6000
  await lockstep.step('B'); // B takes the free lock
  expect(await lockstep.violations()).toEqual([]);
  await lockstep.advance(1000); // t=7000: A resumes and its DEL removes B's lock
  expect((await lockstep.violations()).map((v) => [v.kind, v.message])).toEqual([['foreign-release', "A deleted B's lock"]]);
  await expect(lockstep.banner).toContainText("A deleted B's lock");
  expect((await lockstep.state()).schedule).toBe(myScenario.defaultSchedule);
});

test('a broken definition is refused with the path of the problem', async ({ lockstep }) => {
  const broken = { ...myScenario, variants: [{ id: 'v', clients: [{ id: 'A', program: [{ op: 'goto', goto: 'retry' }] }] }] };
  await expect(lockstep.open(broken)).rejects.toThrow('definition.variants[0].clients[0].program[0].goto: no step of client A has the label "retry"');
});
