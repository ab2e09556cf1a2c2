import { addUsage, type PricingTable, priceUsage, type UsageTotals, ZERO_USAGE } from '@keel/reliability';
import type { ModelUsage } from '../model/model-provider-v1';

/** The usage of a run: totals plus how many model calls made them. */
export interface RunUsage extends UsageTotals {
  readonly totalTokens: number;
  /** Every model call, failed attempts and re-asks included. */
  readonly modelCalls: number;
}

/** Counts every model call of a run, and prices it when the model is in the pricing table. */
export class UsageLedger {
  private totals: UsageTotals = ZERO_USAGE;
  private calls = 0;

  constructor(private readonly pricing?: PricingTable) {}

  /** The usage (and cost) of one call, without recording it. */
  price(model: string, usage: ModelUsage): UsageTotals {
    const base: UsageTotals = {
      inputTokens: usage.inputTokens,
      outputTokens: usage.outputTokens,
      cacheReadTokens: usage.cacheReadTokens,
      cacheWriteTokens: usage.cacheWriteTokens,
    };
    const price = this.pricing?.[model];
    return price ? { ...base, costUsd: priceUsage(base, price) } : base;
  }

  /** Records one model call (a call that failed before answering adds zero tokens). */
  record(usage: UsageTotals): void {
    this.totals = addUsage(this.totals, usage);
    this.calls++;
  }

  /** Totals so far. */
  get usage(): UsageTotals {
    return this.totals;
  }

  /** Totals with the call count. */
  snapshot(): RunUsage {
    const { inputTokens, outputTokens, cacheReadTokens, cacheWriteTokens } = this.totals;
    return {
      ...this.totals,
      totalTokens: inputTokens + outputTokens + cacheReadTokens + cacheWriteTokens,
      modelCalls: this.calls,
    };
  }
}
