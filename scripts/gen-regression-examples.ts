/**
 * Writes the committed regression-test examples (examples/my-lock-tests/tests/regression/) with the
 * same generator the page's "Export as Vitest test" and "Export as Playwright spec" use, from a run
 * of get-then-del (`npm run examples:regression`). With --check, writes nothing and exits 1 when a
 * committed file differs: the generator and its examples cannot drift apart. The example project
 * runs both files from the packed package (`npm run test:example`).
 */
import { writeOrCheck } from './generated-file';
import { regressionExampleFiles } from './regression-examples';

for (const file of await regressionExampleFiles()) writeOrCheck(file.path, file.text, 'npm run examples:regression');
