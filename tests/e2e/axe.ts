/** axe-core in the page: the serious and critical violations, one line each (rule, help, where). */
import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';

/** axe's source, evaluated in the page over the DevTools protocol: a <script> tag would be refused by the page's CSP. */
const axeSource = readFileSync('node_modules/axe-core/axe.min.js', 'utf8');

interface AxeResult {
  violations: { id: string; impact: string | null; help: string; nodes: { target: string[] }[] }[];
}

export async function seriousViolations(page: Page): Promise<string[]> {
  await page.evaluate(axeSource);
  const result = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<AxeResult> } }).axe;
    return axe.run(document, { resultTypes: ['violations'] });
  });
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join('; ')})`);
}
