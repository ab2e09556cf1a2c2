import type { TokenUsage } from '@keel/provider';

/**
 * A token count as the spec gives it: a number as it is (Keel's ledger refuses negative or
 * non-finite ones and reports them), `undefined`/`null` as 0, anything else as NaN, never a
 * string that would concatenate.
 */
function count(value: unknown): number {
  if (typeof value === 'number') return value;
  if (value === undefined || value === null) return 0;
  return Number.NaN;
}

const isCount = (value: unknown): value is number => typeof value === 'number';

const isAbsent = (value: unknown): boolean => value === undefined || value === null;

/** A count the provider did not give: left out, so the ledger reports and estimates it. */
const unreported = (value: unknown): number | undefined => (isAbsent(value) ? undefined : count(value));

/** Reads a field of something that may not be an object. */
function field(value: unknown, name: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[name] : undefined;
}

/**
 * Maps the spec's usage (`LanguageModelV3Usage`) to Keel's: `inputTokens` are the input tokens
 * neither read from nor written to a cache (`inputTokens.noCache`, or the total less the cached
 * ones when a provider gives only the total), `cacheReadTokens` and `cacheWriteTokens` the cached
 * ones, `outputTokens` the total output (reasoning included: it is billed as output). A provider
 * that reports no input (or no output) count at all leaves it `undefined`: Keel then reports
 * `usage.invalid` and records an estimate, so budgets never read a missing count as 0.
 */
export function mapUsage(usage: unknown): TokenUsage {
  const input = field(usage, 'inputTokens');
  const output = field(usage, 'outputTokens');
  const cacheRead = field(input, 'cacheRead');
  const cacheWrite = field(input, 'cacheWrite');
  const noCache = field(input, 'noCache');
  const total = field(input, 'total');
  const inputTokens = noCache !== undefined && noCache !== null ? count(noCache) : isCount(total) ? total - count(cacheRead) - count(cacheWrite) : unreported(total);
  const outputTotal = field(output, 'total');
  const text = field(output, 'text');
  const reasoning = field(output, 'reasoning');
  const outputTokens = outputTotal !== undefined && outputTotal !== null ? count(outputTotal) : isAbsent(text) && isAbsent(reasoning) ? undefined : count(text) + count(reasoning);
  return { inputTokens, outputTokens, cacheReadTokens: count(cacheRead), cacheWriteTokens: count(cacheWrite) } as TokenUsage;
}
