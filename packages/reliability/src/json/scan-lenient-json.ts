import type { JsonDefect, JsonRepair } from './repair-names';
import type { TextEdit } from './json-text';
import { Scanner } from './lenient-scanner';

export { BARE_MARK } from './lenient-scanner';

/** What {@link scanLenientJson} found in one candidate value. */
export type LenientScan =
  | {
      readonly ok: true;
      /** The lossless repairs the text needs (empty for strict JSON). */
      readonly repairs: ReadonlySet<JsonRepair>;
      /** Comma fixes, in text order. */
      readonly edits: readonly TextEdit[];
      /**
       * The value's content, token by token, normalised (a tag — `s`, `k`, `n` — then the decoded
       * text, or a bracket or literal alone): two texts with equal signatures mean the same value.
       */
      readonly signature: readonly string[];
      readonly maxDepth: number;
      /**
       * The value holds bare text where a value belongs (`{status: pending}`): each stands in the
       * value as {@link BARE_MARK} then its text, for a schema to resolve (see `coerceToSchema`); without
       * one, this is why the value cannot be used.
       */
      readonly bare?: { readonly message: string; readonly position: number };
    }
  | { readonly ok: false; readonly defect: JsonDefect; readonly message: string; readonly position: number };

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
