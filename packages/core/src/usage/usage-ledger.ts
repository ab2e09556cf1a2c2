import type { AttemptRecord, PricingTable, TokenUsage } from '@keel/reliability';
import { priceUsage } from '@keel/reliability/internal';


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
  readonly usage: TokenUsage;
  readonly invalid: readonly InvalidUsageField[];
}

const ZERO: TokenUsage = Object.freeze({ inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 });

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
  for (const field of USAGE_FIELDS) {
    const value = read(usage, field);
    if (!isCount(value)) (invalid ??= []).push({ field, received: describe(value) });
  }
  if (!invalid) return { usage: usage as TokenUsage, invalid: NO_INVALID };
  const count = (field: keyof TokenUsage): number => {
    const value = read(usage, field);
    return isCount(value) ? value : 0;
  };
  return {
    usage: Object.freeze({ inputTokens: count('inputTokens'), outputTokens: count('outputTokens'), cacheReadTokens: count('cacheReadTokens'), cacheWriteTokens: count('cacheWriteTokens') }),
    invalid,
  };
}

const NO_INVALID: readonly InvalidUsageField[] = Object.freeze([]);

const isCost = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value) && value >= 0;

/** The usage of a run: totals plus how many model calls made them. */
export interface RunUsage extends TokenUsage {
  readonly totalTokens: number;
  /** Every model call, failed attempts and re-asks included. */
  readonly modelCalls: number;
}

/**
 * The one ledger of a run: every model call's attempt record, in order, and the totals (tokens,
 * cost, calls) they add up to. Priced when the model is in the pricing table.
 */
export class UsageLedger {
  /** Every attempt of the run, failed ones and re-asks included, in the order they were recorded. */
  readonly attempts: AttemptRecord[] = [];
  private inputTokens = 0;
  private outputTokens = 0;
  private cacheReadTokens = 0;
  private cacheWriteTokens = 0;
  private costUsd: number | undefined;
  private calls = 0;
  /** The last snapshot, reused until the next call is recorded. */
  private cached: RunUsage | undefined;

  /** @param pricing the prices calls are counted at (a call of a model it has no price for has no cost). */
  constructor(readonly pricing?: PricingTable) {}

  /**
   * The usage (and cost) of one call, without recording it. Counts that are not finite,
   * non-negative numbers are taken as 0 (see {@link sanitizeUsage}): the ledger never adds them.
   */
  price(model: string, raw: TokenUsage): TokenUsage {
    const usage = sanitizeUsage(raw).usage;
    const price = this.pricing?.[model];
    const totals = {
      inputTokens: usage.inputTokens,
      outputTokens: usage.outputTokens,
      cacheReadTokens: usage.cacheReadTokens,
      cacheWriteTokens: usage.cacheWriteTokens,
    };
    return price ? { ...totals, costUsd: priceUsage(totals, price) } : totals;
  }

  /** Records one model call: its attempt record and its usage (a call that failed before answering adds zero tokens). */
  record(attempt: AttemptRecord): void {
    this.attempts.push(attempt);
    const raw = attempt.usage;
    const usage = { ...sanitizeUsage(raw).usage, ...(isCost(raw.costUsd) ? { costUsd: raw.costUsd } : {}) };
    this.inputTokens += usage.inputTokens;
    this.outputTokens += usage.outputTokens;
    this.cacheReadTokens += usage.cacheReadTokens;
    this.cacheWriteTokens += usage.cacheWriteTokens;
    if (usage.costUsd !== undefined) this.costUsd = (this.costUsd ?? 0) + usage.costUsd;
    this.calls++;
    this.cached = undefined;
  }

  /** Totals so far. */
  get usage(): TokenUsage {
    return this.snapshot();
  }

  /** Totals with the call count. */
  snapshot(): RunUsage {
    if (this.cached) return this.cached;
    const usage = {
      inputTokens: this.inputTokens,
      outputTokens: this.outputTokens,
      cacheReadTokens: this.cacheReadTokens,
      cacheWriteTokens: this.cacheWriteTokens,
      totalTokens: this.inputTokens + this.outputTokens + this.cacheReadTokens + this.cacheWriteTokens,
      modelCalls: this.calls,
    };
    this.cached = Object.freeze(this.costUsd === undefined ? usage : { ...usage, costUsd: this.costUsd });
    return this.cached;
  }
}

/** The usage `attempts` add up to, priced by `pricing`: what a ledger that recorded them in order reports. */
export function usageOfAttempts(pricing: PricingTable | undefined, attempts: readonly AttemptRecord[]): RunUsage {
  const ledger = new UsageLedger(pricing);
  for (const attempt of attempts) ledger.record(attempt);
  return ledger.snapshot();
}
