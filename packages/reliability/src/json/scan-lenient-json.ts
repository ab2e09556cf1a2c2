import { type LenientScan, Scanner } from './lenient-scanner';

export { BARE_MARK } from './lenient-scanner';
export type { LenientScan };

/**
 * Reads one JSON-like value in a single pass, without recursion, and says exactly what it would
 * take to make it strict JSON: the lossless repairs (quotes, bare keys, Python literals, comments,
 * commas, control characters, odd spaces), or the first defect whose fix would guess content.
 * Linear in the text's length.
 */
export function scanLenientJson(text: string): LenientScan {
  return new Scanner(text).run();
}

/** How a text reads as the opening of one JSON value (see {@link scanPrefix}). */
export interface PrefixScan {
  /** `complete`: one whole value; `prefix`: a value the text ends inside (cut short); `broken`: a defect before the end. */
  readonly reads: 'complete' | 'prefix' | 'broken';
  /** Where the reading inserts a comma or a colon the text lacks. */
  readonly inserted: readonly number[];
}

/**
 * Reads `text` as the opening of one JSON value, as {@link scanLenientJson} does: whether it is
 * whole, cut short, or broken by a defect before its end, and where the reading inserts a comma or
 * colon. Linear in the text's length.
 */
export function scanPrefix(text: string): PrefixScan {
  const scanner = new Scanner(text);
  const scan = scanner.run();
  const reads = scan.ok ? 'complete' : scan.defect === 'truncated' ? 'prefix' : 'broken';
  const inserted = scanner.edits.filter((edit) => edit.remove === 0 && (edit.insert === ',' || edit.insert === ':')).map((edit) => edit.at);
  return { reads, inserted };
}
