/**
 * The page's scenario catalog (src/scenarios/catalog.ts), made from the scenario registry
 * (src/scenarios/index.ts): each scenario's id, titles, one-line lesson, its variants' titles, whether it uses
 * scripts, in teaching order, and a loader for its body. The page loads a scenario's body only
 * when it is shown (or in the background after the first paint); Node imports the registry.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Scenario } from '../src/engine/scenario';
import { usesScripts } from '../src/engine/uses-scripts';
import { SCENARIOS } from '../src/scenarios';

const registryPath = fileURLToPath(new URL('../src/scenarios/index.ts', import.meta.url));

/** `import { name } from './file';` lines of the registry: which module exports which scenario. */
function registryImports(): Map<string, string> {
  const modules = new Map<string, string>();
  for (const match of readFileSync(registryPath, 'utf8').matchAll(/^import \{ (\w+) \} from '\.\/([\w-]+)';$/gm)) modules.set(match[1], match[2]);
  return modules;
}

const quote = (text: string) => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

export async function renderScenarioCatalog(scenarios: readonly Scenario[] = SCENARIOS): Promise<string> {
  const owners = new Map<Scenario, { module: string; name: string }>();
  for (const [name, module] of registryImports()) {
    const exported = ((await import(`../src/scenarios/${module}.ts`)) as Record<string, unknown>)[name];
    if (scenarios.includes(exported as Scenario)) owners.set(exported as Scenario, { module, name });
  }
  const entries = scenarios.map((s, i) => {
    const owner = owners.get(s);
    if (owner === undefined) throw new Error(`scenario ${s.id}: list it in src/scenarios/index.ts as \`import { name } from './file';\``);
    // The first lesson is part of the page (imported above): its loader hands it over.
    const load = i === 0 ? `() => Promise.resolve(${owner.name})` : `() => import('./${owner.module}').then((m) => m.${owner.name})`;
    return [
      '  {',
      `    id: ${quote(s.id)},`,
      `    title: { en: ${quote(s.title.en)}, zh: ${quote(s.title.zh)} },`,
      `    summary: { en: ${quote(s.summary.en)}, zh: ${quote(s.summary.zh)} },`,
      `    variants: [${s.variants.map((v) => `{ id: ${quote(v.id)}, title: { en: ${quote(v.title.en)}, zh: ${quote(v.title.zh)} } }`).join(', ')}],`,
      `    usesScripts: ${usesScripts(s)},`,
      `    load: ${load},`,
      '  },',
    ].join('\n');
  });
  const first = owners.get(scenarios[0]) as { module: string; name: string };
  return [
    '// Generated from src/scenarios/index.ts by `npm run scenarios:catalog`: do not edit by hand.',
    '// The page\'s scenario registry: metadata in teaching order, bodies on demand (scripts/scenario-catalog.ts).',
    "import type { ScenarioEntry } from './catalog-entry';",
    `import { ${first.name} } from './${first.module}';`,
    '',
    '/** The first lesson, bundled with the page: what a new visitor sees first. */',
    `export const firstScenario = ${first.name};`,
    '',
    'export const SCENARIO_CATALOG: readonly ScenarioEntry[] = [',
    ...entries,
    '];',
    '',
  ].join('\n');
}
