import { type DecoderDialect, lowerJsonSchema } from '@keel/provider';

/** Why `schema` cannot be lowered to `dialect`; `undefined` when it can. */
export function loweringReason(schema: Readonly<Record<string, unknown>>, dialect: DecoderDialect): string | undefined {
  const outcome = lowerJsonSchema(schema, dialect);
  return outcome.ok ? undefined : outcome.reason;
}
