/**
 * Writes src/scenarios/catalog.ts from the scenario registry (`npm run scenarios:catalog`).
 * With --check, writes nothing and exits 1 when the committed file differs.
 */
import { renderScenarioCatalog } from './scenario-catalog';
import { writeOrCheck } from './generated-file';

writeOrCheck('src/scenarios/catalog.ts', await renderScenarioCatalog(), 'npm run scenarios:catalog');
