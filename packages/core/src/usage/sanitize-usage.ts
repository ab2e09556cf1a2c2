import type { ModelUsage } from '../model/model-provider-v1';

/** The token counts of a usage record, in the order they are checked. */
export const USAGE_FIELDS = ['inputTokens', 'outputTokens', 'cacheReadTokens', 'cacheWriteTokens'] as const;

/** A usage field whose value was not a count. */
export interface InvalidUsageField {
  readonly field: (typeof USAGE_FIELDS)[number] | 'usage';
  /** What was received, described (never the value itself when it is not a number). */
  readonly received: string;
}

/** A usage record whose counts are all finite and non-negative, and what had to be fixed. */
export interface SanitizedUsage {
  readonly usage: ModelUsage;
  readonly invalid: readonly InvalidUsageField[];
}

const ZERO: ModelUsage = Object.freeze({ inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 });

function describe(value: unknown): string {
  if (typeof value === 'number') return String(value);
  if (value === null) return 'null';
  return typeof value;
}

function read(usage: object, field: string): unknown {
  try {
    return (usage as Record<string, unknown>)[field];
  } catch {
    return Symbol('unreadable');
  }
}

/**
 * A count Keel can add up: a non-negative number no larger than `Number.MAX_SAFE_INTEGER`, so a
 * run's totals stay finite and exact (two counts of 1e308 would add up to Infinity).
 */
const isCount = (value: unknown): value is number => typeof value === 'number' && value >= 0 && value <= Number.MAX_SAFE_INTEGER;

/**
 * Makes a provider's usage safe to add up: a count that is not a non-negative number up to
 * `Number.MAX_SAFE_INTEGER` (NaN, Infinity, 1e308, negative, a string, missing) is recorded as
 * unknown — 0 — and listed in `invalid`, so totals never go negative, infinite or NaN, or
 * concatenate strings, and budget rules keep comparing numbers. A missing or non-object usage is all zeros, listed as field `usage`.
 */
export function sanitizeUsage(usage: unknown): SanitizedUsage {
  if (typeof usage !== 'object' || usage === null) return { usage: ZERO, invalid: [{ field: 'usage', received: describe(usage) }] };
  let invalid: InvalidUsageField[] | undefined;
  const clean = { ...ZERO } as { -readonly [K in keyof ModelUsage]: number };
  for (const field of USAGE_FIELDS) {
    const value = read(usage, field);
    if (isCount(value)) clean[field] = value;
    else (invalid ??= []).push({ field, received: describe(value) });
  }
  if (!invalid) return { usage: usage as ModelUsage, invalid: [] };
  return { usage: Object.freeze(clean), invalid };
}
