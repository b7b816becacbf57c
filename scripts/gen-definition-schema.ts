/**
 * Writes docs/scenario-definition.schema.json from the valibot schema (`npm run docs:schema`).
 * With --check, writes nothing and exits 1 when the committed file differs.
 */
import { definitionJsonSchemaText } from './definition-json-schema';
import { writeOrCheck } from './generated-file';

writeOrCheck('docs/scenario-definition.schema.json', definitionJsonSchemaText(), 'npm run docs:schema');
