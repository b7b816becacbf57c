import { expect, test } from './fixtures';
import { applyLook, LARGE, SMALL, type Look } from './looks';

// Goal: a teacher shows Redlock's failures node by node. On redlock-clock-jump the inspector has
// one column per node: whose token each node holds, its PTTL on its own clock (r3's clock is
// 11 s ahead) and, under the columns, B with a majority while A, holding two nodes, still
// believes it holds the lock. From the Nodes dialog, partitioning a client from a node is one
// click (a refused fault is disabled with the engine's reason), and the request then shows as lost
// on the client's timeline row. The Redlock debate opens from the lesson and its links load runs.

const CLOCK_JUMP = 'A/@r4 A/@r5 B/@r1 B/@r2 A +200 @r3+11000 B +300';

test('redlock-clock-jump: one inspector column per node; B holds a majority, A believes without one', async ({ app }) => {
  await app.open();
  await app.load({ scenario: 'redlock-clock-jump', variant: 'clock-jump', schedule: CLOCK_JUMP });
  const page = app.page;
  const nodes = page.getByTestId('inspector.nodes');
  await expect(nodes).toBeVisible();
  for (const [id, holder] of [['r1', 'A'], ['r2', 'A'], ['r3', 'B'], ['r4', 'B'], ['r5', 'B']]) {
    await expect(page.getByTestId(`inspector.node.${id}.lock`)).toHaveAttribute('data-holder', holder);
  }
  await expect(page.getByTestId('inspector.node.r1.pttl')).toHaveText('9500');
  await expect(page.getByTestId('inspector.node.r3.pttl')).toHaveText('9800');
  await expect(page.getByTestId('inspector.node.r3.clock')).toHaveText('+11000');
  await expect(page.getByTestId('inspector.node.r1.clock')).toHaveText('±0');
  const b = page.getByTestId('lock-truth.nodes.B');
  await expect(b).toHaveAttribute('data-majority', 'true');
  await expect(b).toHaveAttribute('data-count', '3');
  await expect(b).toHaveAttribute('data-believes', 'true');
  const a = page.getByTestId('lock-truth.nodes.A');
  await expect(a).toHaveAttribute('data-majority', 'false');
  await expect(a).toHaveAttribute('data-count', '2');
  await expect(a).toHaveAttribute('data-believes', 'true');
  await expect(page.getByTestId('lock-truth.mismatch')).toContainText('Belief and truth differ');
  // Back before r3's jump: A's token on r1..r3, nobody else's.
  await app.load({ scenario: 'redlock-clock-jump', variant: 'clock-jump', schedule: CLOCK_JUMP, cursor: 6 });
  await expect(page.getByTestId('inspector.node.r3.lock')).toHaveAttribute('data-holder', 'A');
  await expect(page.getByTestId('inspector.node.r4.lock')).toHaveAttribute('data-node-lock', 'free');
  await expect(page.getByTestId('lock-truth.nodes.A')).toHaveAttribute('data-majority', 'true');
  await expect(page.getByTestId('lock-truth.nodes.B')).toHaveCount(0);
  expect(await page.evaluate(() => document.documentElement.scrollHeight - window.innerHeight), 'page scrolls').toBeLessThanOrEqual(0);
});

test('the Nodes dialog partitions a client from a node; the request is lost on the timeline; heal is refused until then', async ({ app }) => {
  await app.open();
  await app.load({ scenario: 'redlock-happy-path', variant: 'majority', schedule: '', cursor: 0 });
  const page = app.page;
  await page.getByTestId('nodes-open').click();
  const dialog = page.getByRole('dialog', { name: 'Redis nodes and the schedule' });
  await expect(dialog).toBeVisible();
  await dialog.getByTestId('node-faults.client').selectOption('A');
  await dialog.getByTestId('node-faults.node').selectOption('r1');
  const heal = dialog.getByRole('button', { name: 'Heal A and r1' });
  await expect(heal).toBeDisabled();
  await expect(dialog.getByTestId('node-faults.refusals')).toContainText('A and @r1 are not partitioned');
  await expect(dialog.getByRole('button', { name: "Set r1's replication delay to 1000 ms" })).toBeDisabled();
  await dialog.getByRole('button', { name: 'Partition A from r1' }).click();
  await expect(dialog.getByTestId('schedule-text')).toHaveValue('A/@r1');
  await expect(heal).toBeEnabled();
  await expect(dialog.getByRole('button', { name: 'Partition A from r1' })).toBeDisabled();
  // The dialog must stay usable at 1280x720: its last button is on screen.
  await expect(dialog.getByRole('button', { name: 'Close' })).toBeInViewport();
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();
  await app.stepClient('A');
  const row = page.getByTestId('timeline.row.A');
  await expect(row).toContainText('lost → @r1');
  const trace = await app.trace();
  expect(trace.events.some((e) => e.kind === 'drop' && e.clientId === 'A' && e.node === 'r1' && e.cause === 'partition')).toBe(true);
});

test('a clock jump from the dialog moves the node’s clock column', async ({ app }) => {
  await app.open();
  await app.load({ scenario: 'redlock-happy-path', variant: 'majority', schedule: 'A', cursor: 1 });
  const page = app.page;
  await page.getByTestId('nodes-open').click();
  const dialog = page.getByRole('dialog', { name: 'Redis nodes and the schedule' });
  await dialog.getByTestId('node-faults.node').selectOption('r2');
  await dialog.getByTestId('node-faults.ms').fill('2500');
  await dialog.getByRole('button', { name: "Jump r2's clock +2500 ms" }).click();
  await expect(dialog.getByTestId('schedule-text')).toHaveValue('A @r2+2500');
  await dialog.getByTestId('node-faults.direction').selectOption('back');
  await dialog.getByRole('button', { name: "Jump A's clock −2500 ms" }).click();
  await expect(dialog.getByTestId('schedule-text')).toHaveValue('A @r2+2500 A@-2500');
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(page.getByTestId('inspector.node.r2.clock')).toHaveText('+2500');
});

test('the Redlock debate opens from the lesson; a claim’s link loads its run', async ({ app }) => {
  await app.open();
  await app.load({ scenario: 'redlock-gc-pause', variant: 'no-check' });
  const page = app.page;
  await page.getByRole('button', { name: /^Lesson/ }).click();
  await page.getByRole('button', { name: 'The Redlock debate: both sides, each with its run' }).click();
  const dialog = page.getByRole('dialog', { name: 'The Redlock debate' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId('debate.claim.fencing')).toContainText('fencing token');
  await expect(dialog.getByTestId('debate.claim.random-value')).toContainText('No Lockstep scenario shows this yet');
  await dialog.getByTestId('debate.run.redlock-restart-without-fsync.delayed-restart').click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(/a node restarts without the lock/);
  await expect(page.getByRole('radio', { name: /Delayed restart/ })).toBeChecked();
  await expect(app.position).toHaveText(/^Step 0 \//);
});

// Screenshots of the five node columns and the dialog, for a human to look at (.screenshots/).
const LOOKS: Look[] = [
  { name: 'nodes-light', viewport: SMALL, dark: false, presentation: false, zh: false },
  { name: 'nodes-dark', viewport: SMALL, dark: true, presentation: false, zh: false },
  { name: 'nodes-presentation', viewport: SMALL, dark: false, presentation: true, zh: false },
  { name: 'nodes-presentation-dark-1920', viewport: LARGE, dark: true, presentation: true, zh: false },
  { name: 'nodes-presentation-1920-zh', viewport: LARGE, dark: false, presentation: true, zh: true },
];

for (const look of LOOKS) {
  test(`node columns and the Nodes dialog fit: ${look.name}`, async ({ app }) => {
    test.slow();
    await app.open();
    await app.load({ scenario: 'redlock-clock-jump', variant: 'clock-jump', schedule: CLOCK_JUMP });
    await applyLook(app, look);
    const page = app.page;
    await expect(page.getByTestId('inspector.node.r5.repl')).toBeInViewport();
    await expect(page.getByTestId('lock-truth.nodes.B')).toBeInViewport();
    await expect(page.getByTestId('timeline.row.node.r5')).toBeInViewport();
    expect(await page.evaluate(() => document.documentElement.scrollHeight - window.innerHeight), 'page scrolls').toBeLessThanOrEqual(0);
    await app.screenshot(`${look.name}-inspector`);
    await page.getByTestId('nodes-open').click();
    const dialog = page.getByTestId('nodes-dialog');
    await expect(dialog).toBeVisible();
    await expect(dialog.getByTestId('node-faults.replication-delay')).toBeInViewport();
    await app.screenshot(`${look.name}-dialog`);
  });
}
