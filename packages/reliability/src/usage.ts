/** Token counts of one or more model calls, and their cost when a pricing table is known. */
export interface TokenUsage {
  /** Input (prompt) tokens not read from or written to a cache. */
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** Input tokens served from the provider's prompt cache. */
  readonly cacheReadTokens: number;
  /** Input tokens written to the provider's prompt cache. */
  readonly cacheWriteTokens: number;
  /** Cost in US dollars; present only when every call's model had a price. */
  readonly costUsd?: number;
}

/** Price of one model, in US dollars per million tokens. */
interface ModelPrice {
  readonly inputPerMTok: number;
  readonly outputPerMTok: number;
  /** Defaults to `inputPerMTok`. */
  readonly cacheReadPerMTok?: number;
  /** Defaults to `inputPerMTok`. */
  readonly cacheWritePerMTok?: number;
}

/** Prices by model id. */
export type PricingTable = Readonly<Record<string, ModelPrice>>;

/** Usage of nothing. */
export const ZERO_USAGE: TokenUsage = Object.freeze({ inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 });

/** Adds two usage totals; the result has a cost when either side has one (a missing cost counts as 0). */
export function addUsage(a: TokenUsage, b: TokenUsage): TokenUsage {
  const sum = {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    cacheReadTokens: a.cacheReadTokens + b.cacheReadTokens,
    cacheWriteTokens: a.cacheWriteTokens + b.cacheWriteTokens,
  };
  if (a.costUsd === undefined && b.costUsd === undefined) return sum;
  return { ...sum, costUsd: (a.costUsd ?? 0) + (b.costUsd ?? 0) };
}

/** The cost of `usage` at `price`, in US dollars. */
export function priceUsage(usage: TokenUsage, price: ModelPrice): number {
  const perToken = (perMTok: number) => perMTok / 1_000_000;
  return (
    usage.inputTokens * perToken(price.inputPerMTok) +
    usage.outputTokens * perToken(price.outputPerMTok) +
    usage.cacheReadTokens * perToken(price.cacheReadPerMTok ?? price.inputPerMTok) +
    usage.cacheWriteTokens * perToken(price.cacheWritePerMTok ?? price.inputPerMTok)
  );
}

/** Total tokens, input of every sort plus output. */
export function totalTokens(usage: TokenUsage): number {
  return usage.inputTokens + usage.outputTokens + usage.cacheReadTokens + usage.cacheWriteTokens;
}
