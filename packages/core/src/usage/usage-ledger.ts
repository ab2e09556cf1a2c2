import type { AttemptRecord, PricingTable } from '@keel/reliability';
import { priceUsage, type UsageTotals } from '@keel/reliability/internal';
import type { ModelUsage } from '../model/model-provider-v1';
import { sanitizeUsage } from './sanitize-usage';

const isCost = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value) && value >= 0;

/** The usage of a run: totals plus how many model calls made them. */
export interface RunUsage extends UsageTotals {
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

  constructor(private readonly pricing?: PricingTable) {}

  /**
   * The usage (and cost) of one call, without recording it. Counts that are not finite,
   * non-negative numbers are taken as 0 (see {@link sanitizeUsage}): the ledger never adds them.
   */
  price(model: string, raw: ModelUsage): UsageTotals {
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
  get usage(): UsageTotals {
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
