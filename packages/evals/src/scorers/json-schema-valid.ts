import { type AnySchema, toValidator } from '@keel/reliability';
import type { Scorer } from '../evaluate/eval-types';

/**
 * Passes when the run's value is valid against `schema` (JSON Schema, TypeBox, a Standard Schema
 * such as Zod, or `{ parse }`): for agents without an output schema, or to check a stricter one.
 * Text is parsed as JSON first. The reason lists the issues.
 * @throws {InvalidSchemaError} at once when `schema` is none of those.
 */
export function jsonSchemaValid(schema: AnySchema | Readonly<Record<string, unknown>>, options: { readonly name?: string } = {}): Scorer {
  const validator = toValidator(schema as AnySchema);
  return {
    name: options.name ?? 'json-schema-valid',
    score: async ({ value }) => {
      let candidate: unknown = value;
      if (typeof value === 'string') {
        try {
          candidate = JSON.parse(value);
        } catch {
          return { score: 0, pass: false, reason: 'the answer is not JSON' };
        }
      }
      const outcome = await validator.validate(candidate);
      if (outcome.ok) return { score: 1, pass: true };
      return { score: 0, pass: false, reason: outcome.issues.map((issue) => `${issue.pathText || '(root)'}: ${issue.message}`).join('; ') };
    },
  };
}
