/**
 * The published JSON Schema of the scenario definition format, generated from the valibot schema
 * (src/definition/schema.ts) so the two cannot drift (tests/unit/definition-schema.test.ts).
 */
import { toJsonSchema } from '@valibot/to-json-schema';
import { DEFINITION_VERSION, definitionSchema } from '../src/definition';
import { clientSchema, conditionSchema, scriptSchema, stepSchema, textSchema, variantSchema } from '../src/definition/schema';

export function definitionJsonSchemaText(): string {
  const schema = toJsonSchema(definitionSchema, {
    target: 'draft-07',
    definitions: { Text: textSchema, Condition: conditionSchema, Step: stepSchema, Client: clientSchema, Script: scriptSchema, Variant: variantSchema },
  });
  const { $schema, ...rest } = schema;
  const published = {
    $schema,
    title: `Lockstep scenario definition, version ${DEFINITION_VERSION}`,
    description:
      'A scenario as data: clients and their programs, Lua scripts, params, checkers, variants with expected verdicts, a default schedule. Generated from src/definition/schema.ts; docs/AUTOMATION.md explains each part. Cross-references (labels, scripts, clients, ${placeholders}) are checked by Lockstep beyond this schema.',
    ...rest,
  };
  return `${JSON.stringify(published, null, 2)}\n`;
}
