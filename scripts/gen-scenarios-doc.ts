/**
 * Writes docs/SCENARIOS.md from the scenario data (`npm run docs:scenarios`).
 * With --check, writes nothing and exits 1 when the committed file differs.
 */
import { renderScenariosDoc } from '../src/scenarios/doc';
import { writeOrCheck } from './generated-file';

writeOrCheck('docs/SCENARIOS.md', renderScenariosDoc(), 'npm run docs:scenarios');
