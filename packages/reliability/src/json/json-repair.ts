/**
 * A lossless local repair, recorded by name: it cannot change what the model meant.
 * - `fence-stripped`: a markdown code fence around the value was removed.
 * - `prose-removed`: text before or after the value (or a JSONP-style wrapper) was removed.
 * - `trailing-comma` / `leading-comma`: a comma before a closing bracket, or right after an opening one, was removed.
 * - `missing-comma`: a comma was inserted between two items on their own.
 * - `single-quotes` / `smart-quotes`: strings in `'…'` or `“…”`/`‘…’` became JSON strings.
 * - `unquoted-keys`: bare property names (`{name: 1}`) were quoted.
 * - `python-literals`: `True`, `False`, `None` became `true`, `false`, `null`.
 * - `comments`: `//` and `/* *\/` comments were removed.
 * - `control-characters`: raw newlines, tabs and other control characters in strings were escaped.
 * - `odd-whitespace`: non-breaking and other unusual spaces between tokens became spaces.
 * - `candidate-selected`: the reply held several JSON values and exactly one matched the schema.
 * - `last-candidate`: without a schema, the reply held several JSON values and the last was taken.
 */
export type JsonRepair =
  | 'fence-stripped'
  | 'prose-removed'
  | 'trailing-comma'
  | 'leading-comma'
  | 'missing-comma'
  | 'single-quotes'
  | 'smart-quotes'
  | 'unquoted-keys'
  | 'python-literals'
  | 'comments'
  | 'control-characters'
  | 'odd-whitespace'
  | 'candidate-selected'
  | 'last-candidate';

/**
 * A defect no repair is accepted for, because fixing it would guess content:
 * - `truncated`: the value ends before it is complete (closing it would invent its end).
 * - `ellipsis`: `...` stands in for content that was left out.
 * - `unquoted-value`: a bare word where a value belongs (`status: pending`, `undefined`, `NaN`).
 * - `string-concatenation`: strings joined with `+`.
 * - `missing-value`: a property or item has no value (`"a": ,` or `[1,,2]`).
 * - `missing-colon`: a property name not followed by `:`.
 * - `duplicate-key`: an object names the same property twice (JSON parsers keep only one of them).
 * - `imprecise-number`: a number a JavaScript number cannot hold as written (a whole number past
 *   2^53, a magnitude past the largest double, a non-zero value that would become 0).
 * - `too-deep`: nested too deeply to repair locally.
 * - `syntax`: any other character that JSON does not allow there.
 * - `several-values`: the reply held several different JSON values that each match the schema
 *   (or more than 1,000 bracketed values).
 */
export type JsonDefect =
  | 'truncated'
  | 'ellipsis'
  | 'unquoted-value'
  | 'string-concatenation'
  | 'missing-value'
  | 'missing-colon'
  | 'duplicate-key'
  | 'imprecise-number'
  | 'too-deep'
  | 'syntax'
  | 'several-values';
