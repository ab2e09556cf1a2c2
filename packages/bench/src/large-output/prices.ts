import type { TokenUsage } from '@keel/reliability';

/** List prices in US dollars per million tokens. */
export interface ListPrice {
  readonly label: string;
  readonly inputPerMTok: number;
  readonly outputPerMTok: number;
  readonly cacheReadPerMTok: number;
  readonly cacheWritePerMTok: number;
}

/**
 * The price table of the bench: published list prices (standard tier, no batch discount), per
 * million tokens. Claude Sonnet 4.5: $3 input, $15 output, $0.30 cache reads, $3.75 cache writes
 * (5-minute cache). GPT-4.1: $2 input, $8 output, $0.50 cached input, no charge for writing the
 * cache (counted at the input price, as the cache is written by the call itself).
 */
export const PRICES = {
  'claude-sonnet-4-5': { label: 'Claude Sonnet 4.5', inputPerMTok: 3, outputPerMTok: 15, cacheReadPerMTok: 0.3, cacheWritePerMTok: 3.75 },
  'gpt-4.1': { label: 'GPT-4.1', inputPerMTok: 2, outputPerMTok: 8, cacheReadPerMTok: 0.5, cacheWritePerMTok: 2 },
} as const satisfies Record<string, ListPrice>;

export type PricedModel = keyof typeof PRICES;

/** Dollars of one call's usage at `model`'s list prices. */
export function dollars(usage: Pick<TokenUsage, 'inputTokens' | 'outputTokens' | 'cacheReadTokens' | 'cacheWriteTokens'>, model: PricedModel): number {
  const price: ListPrice = PRICES[model];
  return (
    (usage.inputTokens * price.inputPerMTok + usage.outputTokens * price.outputPerMTok + usage.cacheReadTokens * price.cacheReadPerMTok + usage.cacheWriteTokens * price.cacheWritePerMTok) /
    1_000_000
  );
}
