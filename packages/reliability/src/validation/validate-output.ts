import { ValidationFailure } from '../errors/validation-failure';
import { candidatesBeyond, type JsonCandidate, type JsonCandidates, type RejectedValue } from '../json/extract-json';
import { parseExact } from '../json/parse-exact';
import type { JsonRepair } from '../json/repair-names';
import { numberLiterals, pathKey } from '../json/number-literals';
import { type Coercion, coerceToSchema, holdsBare } from './coerce-to-schema';
import { escapeControl, formatPath, type IssuePath, type ValidationIssue } from './issue';
import type { SchemaValidationResult, SchemaValidator } from './schema-validator';
import { withShapes } from './with-shapes';

/** Longest validator or parser message kept in a failure's message, in characters. */
const MAX_MESSAGE_CHARS = 300;

/** A message that may quote model output, as one bounded line. */
const oneLine = (message: string) => escapeControl(message.length > MAX_MESSAGE_CHARS ? `${message.slice(0, MAX_MESSAGE_CHARS)}…` : message);

/** Settings of {@link validateOutput}. */
interface ValidateOutputOptions {
  /** Apply local JSON extraction and lossless repair before parsing. Default true. */
  readonly repair?: boolean;
  /** Apply schema-guided coercions (see `coerceToSchema`). Default true. */
  readonly coerce?: boolean;
  /** Validate against the schema. `false` returns the parsed value with its issues. Default true. */
  readonly strict?: boolean;
}

/** Outcome of {@link validateOutput}. */
export type OutputCheck<T> =
  | {
      readonly ok: true;
      readonly value: T;
      /** Local repairs applied before parsing (empty when the text was clean JSON). */
      readonly repairs: readonly JsonRepair[];
      /** Schema-guided coercions applied to the parsed value (empty when none was needed). */
      readonly coercions: readonly Coercion[];
      /** With `strict: false`, the issues the value has (empty when valid). */
      readonly issues: ValidationFailure['issues'];
    }
  | { readonly ok: false; readonly failure: ValidationFailure; readonly value?: unknown };

/** One candidate as the schema judged it. */
interface Judged {
  readonly candidate: JsonCandidate;
  /** The validated value, or the value as parsed when invalid. */
  readonly value: unknown;
  readonly coercions: readonly Coercion[];
  /** Issues of the value as parsed (empty when valid): what feedback describes. */
  readonly issues: readonly ValidationIssue[];
  readonly valid: boolean;
  /** Coercions that did not make the value valid: the coerced value and its remaining issues (partial mode returns them). */
  readonly partial?: { readonly value: unknown; readonly coercions: readonly Coercion[]; readonly issues: readonly ValidationIssue[] };
  /** The value holds bare text the schema does not resolve: it cannot be used, for this reason. */
  readonly unusable?: string;
}

const NONE: readonly never[] = Object.freeze([]);

/**
 * Turns model text into a validated value: local JSON extraction and lossless repair (zero model
 * calls), schema-guided coercion, then the schema. When the reply holds several JSON values, each
 * is validated: exactly one valid value is taken (`candidate-selected`) unless an invalid value of
 * the same shape follows it (then that later value is reported; a parse failure when it cannot be
 * used at all); several different valid values
 * are a parse failure asking for exactly one; with none valid, the one with the fewest issues is
 * reported. A failure is a {@link ValidationFailure} at stage `json-parse` or
 * `schema-validate`.
 */
export async function validateOutput<T>(text: string, validator: SchemaValidator<T>, options: ValidateOutputOptions = {}): Promise<OutputCheck<T>> {
  return checkOutput(text, validator, options);
}

/**
 * {@link validateOutput} without the promise when the validator is synchronous (TypeBox/JSON
 * Schema, most Standard Schemas): for hot paths that should not pay a microtask per check.
 */
export function checkOutput<T>(text: string, validator: SchemaValidator<T>, options: ValidateOutputOptions = {}): OutputCheck<T> | Promise<OutputCheck<T>> {
  const direct = parseExact(text);
  // The usual reply: one JSON value as it stands (no reading as bare text applies to JSON).
  if (direct.ok) return judgeAll(text, { candidates: [{ value: direct.value, repairs: NONE, json: text }] }, validator, options);
  const extracted = candidatesBeyond(text, direct, { repair: options.repair ?? true });
  const found = withBareString(extracted, text, validator.jsonSchema, options);
  if (found.candidates.length > extracted.candidates.length && extracted.candidates.length > 0) {
    const word = text.trim();
    // Two readings of one bare word: refused with what they are when both validate.
    const named = (check: OutputCheck<T>): OutputCheck<T> =>
      check.ok || check.failure.defect !== 'several-values' ? check : parseFailure(text, `The reply is the bare word ${word}: ${JSON.stringify(found.candidates[0]?.value)} or the text "${word}", and both match the schema; reply with one JSON value (a string in quotes)`, 'several-values');
    const checked = judgeAll(text, found, validator, options);
    return checked instanceof Promise ? checked.then(named) : named(checked);
  }
  return judgeAll(text, found, validator, options);
}

/** Judges every candidate of a reply and decides on them (see {@link checkOutput}). */
function judgeAll<T>(text: string, found: JsonCandidates, validator: SchemaValidator<T>, options: ValidateOutputOptions): OutputCheck<T> | Promise<OutputCheck<T>> {
  if (found.candidates.length === 0) {
    const failure = found.failure ?? { message: 'no JSON value found' };
    return parseFailure(text, failure.message, failure.defect);
  }
  const coerce = options.coerce ?? true;
  const judged: (Judged | Promise<Judged>)[] = found.candidates.map((candidate) => judge(candidate, validator, coerce));
  if (judged.some((entry) => entry instanceof Promise)) {
    return Promise.all(judged).then((settled) => decideUsable(text, settled, found.rejected ?? NONE, validator, options));
  }
  return decideUsable(text, judged as Judged[], found.rejected ?? NONE, validator, options);
}

/** Python's literal words, which a reply of one bare word may mean (`None` is null) or be (the text "None"). */
const PYTHON_WORDS: ReadonlySet<string> = new Set(['None', 'True', 'False']);

/**
 * The bare-text reading of a reply, where the schema accepts a string (`type: 'string'`, an enum or
 * const with a string, or a union with such a branch):
 * - a reply that holds no JSON value at all is its own text (`bare-string`): its only reading (a
 *   number, literal, object or array would have been found). Never for a reply that starts or ends
 *   with a quote or a backslash (a quoted string written some other way), nor one holding a `"` or a
 *   fence (`callback("foo")`, `The answer is "foo"`: the quoted part may be the answer).
 * - a reply that is one Python literal word (`None`, `True`, `False`) is read both ways, the literal
 *   and the text: the schema keeps the one that validates, and two that do are refused.
 */
function withBareString(found: JsonCandidates, text: string, schema: Readonly<Record<string, unknown>>, options: ValidateOutputOptions): JsonCandidates {
  if (options.repair === false || !acceptsStrings(schema)) return found;
  const trimmed = text.trim();
  if (found.candidates.length === 1 && PYTHON_WORDS.has(trimmed)) return { candidates: [...found.candidates, { value: trimmed, repairs: ['bare-string'] }] };
  if (found.candidates.length > 0 || found.truncated || (found.rejected?.length ?? 0) > 0) return found;
  if (found.failure?.defect !== undefined && found.failure.defect !== 'syntax' && found.failure.defect !== 'unquoted-value') return found;
  if (trimmed === '' || /^["'`\u00b4\u201c\u201d\u2018\u2019\\]|["'`\u00b4\u201c\u201d\u2018\u2019\\]$|```|"/.test(trimmed)) return found;
  return { candidates: [{ value: trimmed, repairs: ['bare-string'] }] };
}

/** True when a schema accepts some strings: `type` holds `string`, an enum or const holds one, or a union branch does. */
function acceptsStrings(schema: Readonly<Record<string, unknown>>): boolean {
  const type = schema.type;
  if (type === 'string' || (Array.isArray(type) && type.includes('string'))) return true;
  if (Array.isArray(schema.enum)) return schema.enum.some((value) => typeof value === 'string');
  if ('const' in schema) return typeof schema.const === 'string';
  const branches = schema.anyOf ?? schema.oneOf;
  return Array.isArray(branches) && branches.some((branch) => typeof branch === 'object' && branch !== null && acceptsStrings(branch as Record<string, unknown>));
}

function judge<T>(candidate: JsonCandidate, validator: SchemaValidator<T>, coerce: boolean): Judged | Promise<Judged> {
  const literals = candidate.json;
  let table: ReadonlyMap<string, string> | undefined;
  // Digits are read as written only where the text holds them as written (".5" and "2." were rewritten).
  const options = literals === undefined || candidate.repairs.includes('bare-decimal-point') ? {} : { literalAt: (path: readonly (string | number)[]) => (table ??= numberLiterals(literals)).get(pathKey(path)) };
  if (candidate.unquoted) {
    // Bare text ("{size: TWO}") is usable only once the schema resolves each one to an allowed value.
    const coerced = coerce ? coerceToSchema(candidate.value, validator.jsonSchema, { ...options, bare: true }) : undefined;
    if (!coerced || holdsBare(coerced.value)) return { candidate, value: candidate.value, coercions: NONE, issues: NONE, valid: false, unusable: candidate.unquoted.message };
    const checked = validator.validate(coerced.value);
    const settle = (result: SchemaValidationResult<T>): Judged =>
      result.ok
        ? { candidate, value: result.value, coercions: coerced.coercions, issues: NONE, valid: true }
        : { candidate, value: coerced.value, coercions: NONE, issues: result.issues, valid: false, partial: { value: coerced.value, coercions: coerced.coercions, issues: result.issues } };
    return checked instanceof Promise ? checked.then(settle) : settle(checked);
  }
  const first = validator.validate(candidate.value);
  const afterFirst = (result: SchemaValidationResult<T>): Judged | Promise<Judged> => {
    if (result.ok) return { candidate, value: result.value, coercions: NONE, issues: NONE, valid: true };
    const coerced = coerce ? coerceToSchema(candidate.value, validator.jsonSchema, options) : undefined;
    if (!coerced || coerced.coercions.length === 0) return { candidate, value: candidate.value, coercions: NONE, issues: result.issues, valid: false };
    const second = validator.validate(coerced.value);
    // Coercions that do not make the value valid are not applied: feedback describes the value the model sent.
    const afterSecond = (again: SchemaValidationResult<T>): Judged =>
      again.ok
        ? { candidate, value: again.value, coercions: coerced.coercions, issues: NONE, valid: true }
        : {
            candidate,
            value: candidate.value,
            coercions: NONE,
            issues: result.issues,
            valid: false,
            partial: { value: coerced.value, coercions: coerced.coercions, issues: again.issues },
          };
    return second instanceof Promise ? second.then(afterSecond) : afterSecond(second);
  };
  return first instanceof Promise ? first.then(afterFirst) : afterFirst(first);
}

/**
 * Candidates holding bare text the schema does not resolve are values that cannot be used: they
 * join `rejected` where they stand, and the rest are decided on.
 */
function decideUsable<T>(text: string, all: readonly Judged[], rejected: readonly RejectedValue[], validator: SchemaValidator<T>, options: ValidateOutputOptions): OutputCheck<T> {
  if (!all.some((entry) => entry.unusable !== undefined)) return decide(text, all, rejected, validator, options);
  const judged: Judged[] = [];
  const moved: RejectedValue[] = [];
  const usableBefore: number[] = [];
  for (const entry of all) {
    usableBefore.push(judged.length);
    if (entry.unusable === undefined) judged.push(entry);
    else moved.push({ after: judged.length, array: Array.isArray(entry.candidate.value), message: entry.unusable, defect: 'unquoted-value' });
  }
  usableBefore.push(judged.length);
  if (judged.length === 0) {
    const last = moved[moved.length - 1] as RejectedValue;
    return parseFailure(text, last.message, last.defect);
  }
  const kept = rejected.map((entry) => ({ ...entry, after: usableBefore[entry.after] ?? judged.length }));
  return decide(text, judged, [...kept, ...moved].sort((left, right) => left.after - right.after), validator, options);
}

function decide<T>(text: string, judged: readonly Judged[], rejected: readonly RejectedValue[], validator: SchemaValidator<T>, options: ValidateOutputOptions): OutputCheck<T> {
  const several = judged.length > 1;
  const valid = judged.filter((entry) => entry.valid);
  if (valid.length > 0) {
    // Values are told apart as the model wrote them: "MW" and "mW" are two answers, even where a coercion would make them equal.
    const distinct = several ? new Set(valid.map((entry) => JSON.stringify(entry.candidate.value))).size : 1;
    if (distinct > 1) {
      return parseFailure(
        text,
        `The reply held ${judged.length} JSON values, ${distinct} of them different and each matching the schema; reply with exactly one JSON value`,
        'several-values',
      );
    }
    const chosen = valid[valid.length - 1] as Judged;
    // Several values where the schema asks for a list, each wrapped as one: the values may be the
    // list's items (newline-separated JSON) as much as one answer repeated.
    if (several && chosen.coercions.some((coercion) => coercion.kind === 'single-to-array' && coercion.path.length === 0)) {
      return parseFailure(text, `The reply held ${judged.length} JSON values where the schema asks for one list; reply with exactly one JSON value (the list)`, 'several-values');
    }
    // A later invalid value of the same shape (a final answer after a valid draft) is the answer
    // the model meant: never fall back to the draft silently, report the final one instead.
    const index = judged.lastIndexOf(chosen);
    const later = judged.slice(index + 1).filter((entry) => sameShape(entry.candidate.value, chosen.candidate.value));
    // A later value that does not even parse (a lossy defect) counts the same way.
    const broken = rejected.filter((entry) => entry.after > index && isContainer(chosen.candidate.value) && entry.array === Array.isArray(chosen.candidate.value)).pop();
    if (broken && broken.after > judged.indexOf(later[later.length - 1] as Judged)) return parseFailure(text, broken.message, broken.defect);
    if (later.length === 0) return { ok: true, value: chosen.value as T, repairs: repairsOf(chosen, several), coercions: chosen.coercions, issues: NONE };
    return invalid(text, later[later.length - 1] as Judged, several, validator, options);
  }
  // None valid: the one with the fewest issues; on a tie the last, the model's final answer (a draft comes first).
  let best = judged[0] as Judged;
  for (const entry of judged) if (entry.issues.length <= best.issues.length) best = entry;
  return invalid(text, best, several, validator, options);
}

function isContainer(value: unknown): boolean {
  return typeof value === 'object' && value !== null;
}

/** Both objects or both arrays: two answers to the same question, not an answer and an aside. */
function sameShape(left: unknown, right: unknown): boolean {
  return Array.isArray(left) === Array.isArray(right) && typeof left === typeof right;
}

function invalid<T>(text: string, best: Judged, several: boolean, validator: SchemaValidator<T>, options: ValidateOutputOptions): OutputCheck<T> {
  if (options.strict === false) {
    const partial = best.partial ?? best;
    return { ok: true, value: partial.value as T, repairs: repairsOf(best, several), coercions: partial.coercions, issues: withShapes(partial.issues, validator.jsonSchema) };
  }
  const issues = withShapes(best.issues, validator.jsonSchema);
  const first = issues[0];
  const count = issues.length;
  return {
    ok: false,
    value: best.value,
    failure: new ValidationFailure({
      stage: 'schema-validate',
      message: `${count} validation issue${count === 1 ? '' : 's'}${first ? `, first at '${first.pathText}': ${oneLine(first.message)}` : ''}`,
      rawOutput: text,
      issues,
      ...(first ? { pathText: first.pathText } : {}),
    }),
  };
}

function repairsOf(entry: Judged, several: boolean): readonly JsonRepair[] {
  return several ? [...entry.candidate.repairs, 'candidate-selected'] : entry.candidate.repairs;
}

function parseFailure(text: string, message: string, defect: ValidationFailure['defect']): OutputCheck<never> {
  return {
    ok: false,
    failure: new ValidationFailure({
      stage: 'json-parse',
      message: oneLine(message),
      rawOutput: text,
      issues: [{ path: [], pathText: formatPath([]), kind: 'other', message }],
      ...(defect === undefined ? {} : { defect }),
    }),
  };
}

/** Values nested deeper are refused before validation: validating them could exhaust the stack. */
const MAX_VALUE_DEPTH = 256;

/**
 * The issue of a value no JSON text holds, found without recursion before a validator runs: nested
 * deeper than {@link MAX_VALUE_DEPTH} arrays and objects, or a number that is not finite (`1e400`
 * parses to `Infinity`; JSON has no `Infinity` or `NaN`). Undefined for any other value.
 */
function beyondJson(value: unknown): ValidationIssue | undefined {
  if (typeof value !== 'object' || value === null) return typeof value === 'number' && !Number.isFinite(value) ? nonFinite([], value) : undefined;
  // Nearly every value is within JSON: checked without building paths, which only an issue needs.
  return withinJson(value) ? undefined : issueBeyondJson(value);
}

/** Whether a value holds only finite numbers and nests at most {@link MAX_VALUE_DEPTH} levels (no recursion, no path built). */
function withinJson(value: object): boolean {
  const values: unknown[] = [value];
  const depths: number[] = [0];
  const keep = (item: unknown, depth: number) => {
    if (typeof item === 'object' ? item !== null : typeof item === 'number') {
      values.push(item);
      depths.push(depth);
    }
  };
  while (values.length > 0) {
    const current = values.pop();
    const depth = depths.pop() as number;
    if (typeof current === 'number') {
      if (!Number.isFinite(current)) return false;
      continue;
    }
    if (depth >= MAX_VALUE_DEPTH) return false;
    if (Array.isArray(current)) for (const item of current) keep(item, depth + 1);
    else for (const key of Object.keys(current as object)) keep((current as Record<string, unknown>)[key], depth + 1);
  }
  return true;
}

/** The first issue {@link withinJson} refused, with its path. */
function issueBeyondJson(value: object): ValidationIssue | undefined {
  const pending: { value: unknown; path: IssuePath }[] = [{ value, path: [] }];
  while (pending.length > 0) {
    const { value: current, path } = pending.pop() as { value: unknown; path: IssuePath };
    if (typeof current === 'number' && !Number.isFinite(current)) return nonFinite(path, current);
    if (typeof current !== 'object' || current === null) continue;
    if (path.length >= MAX_VALUE_DEPTH) {
      return { path, pathText: formatPath(path), kind: 'other', message: `must NOT be nested deeper than ${MAX_VALUE_DEPTH} levels`, expected: `depth ${MAX_VALUE_DEPTH}` };
    }
    if (Array.isArray(current)) current.forEach((item, index) => pending.push({ value: item, path: [...path, index] }));
    else for (const [key, item] of Object.entries(current)) pending.push({ value: item, path: [...path, key] });
  }
  return undefined;
}

const nonFinite = (path: IssuePath, received: number): ValidationIssue => ({ path, pathText: formatPath(path), kind: 'type', message: 'must be a finite number (JSON has no Infinity or NaN)', expected: 'finite number', received });

/**
 * Runs a validator's check, turning a stack exhausted by a value and schema that nest deeply
 * together into an issue rather than an exception.
 */
function withinStack<R>(value: unknown, run: () => R, refuse: (issue: ValidationIssue) => R): R {
  try {
    return run();
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    return refuse({ path: [], pathText: formatPath([]), kind: 'other', message: 'is nested too deeply for this schema to validate', received: value });
  }
}

/**
 * A JSON Schema validator's `validate` around its compiled `check`: a value no JSON text holds is
 * refused ({@link beyondJson}), a stack exhausted while checking is an issue ({@link withinStack}),
 * and `issuesOf` describes a value `check` refused (called at once, while the check's errors hold).
 */
export function guardedCheck<T>(check: (value: unknown) => boolean, issuesOf: (value: unknown) => readonly ValidationIssue[]): (value: unknown) => SchemaValidationResult<T> {
  const refuse = (issue: ValidationIssue): SchemaValidationResult<T> => ({ ok: false, issues: [issue] });
  return (value) => {
    const beyond = beyondJson(value);
    if (beyond) return refuse(beyond);
    return withinStack<SchemaValidationResult<T>>(value, () => (check(value) ? { ok: true, value: value as T } : { ok: false, issues: issuesOf(value) }), refuse);
  };
}
