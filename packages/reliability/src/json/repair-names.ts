/**
 * A lossless local repair, recorded by name: it cannot change what the model meant.
 * - `fence-stripped`: a markdown code fence around the value was removed.
 * - `prose-removed`: text before or after the value (or a JSONP-style wrapper) was removed.
 * - `trailing-comma` / `leading-comma`: a comma before a closing bracket, or right after `{`, was removed
 *   (never right after `[`: `[, 2, 3]` has lost its first item).
 * - `missing-comma`: a comma was inserted between two items on their own.
 * - `missing-colon`: a `:` was inserted between a property name and its value on the same line (`{"a" 2}`).
 * - `single-quotes` / `smart-quotes`: strings in `'…'` or `“…”`/`‘…’` became JSON strings.
 * - `backtick-quotes`: a JavaScript string in backticks (with no `${`) became a JSON string.
 * - `triple-quotes`: a Python string in `"""…"""` or `'''…'''` became a JSON string, its text as written.
 * - `code-block-string`: a markdown code block used as a string value became the string of its lines.
 * - `unquoted-keys`: bare property names (`{name: 1}`, `{5: "b"}`) were quoted.
 * - `bare-decimal-point`: a number written with a bare decimal point (`[2.]`, `.5`) was read as JavaScript and Python read it.
 * - `escapes`: `\'` in a JSON string, an escape JSON lacks that JavaScript and Python read as `'`.
 * - `escaped-json`: JSON written as the inside of a string (`{\"a\": 1}`) was unescaped once.
 * - `bare-string`: the schema asks for a string and the reply holds no JSON: the reply's text is the string.
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
  | 'missing-colon'
  | 'single-quotes'
  | 'backtick-quotes'
  | 'triple-quotes'
  | 'code-block-string'
  | 'bare-decimal-point'
  | 'escapes'
  | 'escaped-json'
  | 'bare-string'
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
 * - `unquoted-value`: a bare word where a value belongs (`status: pending`, `undefined`, `NaN`), unless
 *   the schema allows exactly one value it names.
 * - `string-concatenation`: strings joined with `+`.
 * - `missing-value`: a property or item has no value (`"a": ,` or `[1,,2]`).
 * - `missing-colon`: a property name not followed by `:` and a value on its line.
 * - `unescaped-quote`: a `"` inside a string is not escaped, so the string ends early.
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
  | 'unescaped-quote'
  | 'duplicate-key'
  | 'imprecise-number'
  | 'too-deep'
  | 'syntax'
  | 'several-values';
