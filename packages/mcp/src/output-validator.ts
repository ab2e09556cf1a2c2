import { toValidator } from '@keel/reliability';
import type { JsonSchemaType, JsonSchemaValidator, jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';
import { prepareServerSchema, withPatternChecks } from './input-schema';

/** Accepts anything: for a schema Keel cannot compile, whose data is only shown to the model. */
function unchecked<T>(): JsonSchemaValidator<T> {
  return (input) => ({ valid: true, data: input as T, errorMessage: undefined });
}

/**
 * The JSON Schema validator given to the MCP SDK's client (it checks a tool's structured content
 * against the tool's output schema): Keel's own, so it works where code generation is forbidden
 * (the SDK's default compiles with ajv, which needs it) and a server's patterns run in bounded
 * time. An output schema Keel cannot compile leaves that tool's structured content unchecked
 * rather than refusing the listing: the content only ever reaches the model as text.
 */
export class KeelSchemaValidator implements jsonSchemaValidator {
  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    const prepared = prepareServerSchema(schema, { root: 'any' });
    if (!prepared.ok) return unchecked<T>();
    let validate: ReturnType<typeof toValidator>['validate'];
    try {
      validate = withPatternChecks(toValidator(prepared.schema as Parameters<typeof toValidator>[0]), prepared).validate;
    } catch {
      return unchecked<T>();
    }
    return (input) => {
      const result = validate(input);
      // JSON Schema validators answer synchronously.
      if (result instanceof Promise || result.ok) return { valid: true, data: input as T, errorMessage: undefined };
      return { valid: false, data: undefined, errorMessage: result.issues.map((issue) => `${issue.pathText}: ${issue.message}`).join('; ') };
    };
  }
}
