import { canonicalText } from '../cassette/canonical-request';
import type { Scorer } from '../evaluate/eval-types';

/** Options of {@link exactMatch}. */
export interface ExactMatchOptions {
  /** For text: compare trimmed, and with runs of whitespace as one space. Default `false`. */
  readonly normalizeWhitespace?: boolean;
  /** For text: compare case-insensitively. Default `false`. */
  readonly ignoreCase?: boolean;
  /** Default `exact-match`. */
  readonly name?: string;
}

function textOf(value: string, options: ExactMatchOptions): string {
  const spaced = options.normalizeWhitespace ? value.trim().replace(/\s+/g, ' ') : value;
  return options.ignoreCase ? spaced.toLowerCase() : spaced;
}

/**
 * Passes when the run's value equals the item's `expected`: deep equality for objects (key order
 * ignored), string equality for text (optionally whitespace- and case-insensitive). An item
 * without `expected` fails with that reason.
 */
export function exactMatch(options: ExactMatchOptions = {}): Scorer {
  return {
    name: options.name ?? 'exact-match',
    score: ({ item, value }) => {
      if (item.expected === undefined) return { score: 0, pass: false, reason: 'the item has no expected value' };
      const same = typeof value === 'string' && typeof item.expected === 'string' ? textOf(value, options) === textOf(item.expected, options) : canonicalText(value) === canonicalText(item.expected);
      return same ? { score: 1, pass: true } : { score: 0, pass: false, reason: `expected ${JSON.stringify(item.expected)}, got ${JSON.stringify(value)}` };
    },
  };
}
