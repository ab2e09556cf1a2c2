import type { ValidationFailure } from '../errors/validation-failure';
import { CHARS_PER_TOKEN } from '../feedback/truncate-echo';
import { extractJsonCandidates } from '../json/extract-json';
import { numberLiterals } from '../json/number-literals';
import { formatPath, type IssuePath, type ValidationIssue } from '../validation/issue';

/** One place a patch reply may set: the path as printed in the feedback, and its segments. */
interface PatchTarget {
  /** The key the reply uses, exactly as the feedback prints it (`items[137].price`). */
  readonly pathText: string;
  readonly path: IssuePath;
}

/**
 * A patch re-ask: the feedback asks for only the corrected values at `targets`, as one JSON object
 * whose keys are the printed paths. Keel applies such a reply to `base` (the rejected value as
 * parsed) and validates the whole value again.
 */
export interface PatchRequest {
  /** The paths a patch may set, in the order the feedback lists them; nothing else. */
  readonly targets: readonly PatchTarget[];
  /** The rejected value the patch applies to (never mutated). */
  readonly base: unknown;
  /**
   * The base's number literals as the model wrote them (`1.10`, `1e3`), by path key (see
   * `pathKey`): the patched whole is written with them, so it reads as the reply did.
   */
  readonly literals?: ReadonlyMap<string, string>;
}

/** When a re-ask asks for a patch rather than the whole value. */
export interface PatchSettings {
  /** Smallest rejected output, in tokens (about 4 characters each), worth a patch. */
  readonly minTokens: number;
  /** Most paths one patch may set. */
  readonly maxPaths: number;
}

/** Default patch settings: outputs of 1,000 tokens or more, issues at up to 8 paths. */
export const DEFAULT_PATCH_SETTINGS: PatchSettings = Object.freeze({ minTokens: 1000, maxPaths: 8 });

/** Largest share of the rejected output the patched values may hold: past it a patch saves little. */
const MAX_PATCHED_SHARE = 0.5;

/** Longest printed path a patch may use as a key: the feedback quotes it whole. */
const MAX_PATH_CHARS = 120;

const isContainer = (value: unknown): value is Record<string, unknown> | unknown[] => typeof value === 'object' && value !== null;
const isRecord = (value: unknown): value is Record<string, unknown> => isContainer(value) && !Array.isArray(value);

/** The value at `path` in `value`: `found` false when a segment does not exist (own properties only). */
export function lookup(value: unknown, path: IssuePath): { readonly found: boolean; readonly value?: unknown } {
  let current = value;
  for (const segment of path) {
    if (Array.isArray(current)) {
      if (typeof segment !== 'number' || !Number.isInteger(segment) || segment < 0 || segment >= current.length) return { found: false };
      current = current[segment];
    } else if (isRecord(current)) {
      if (typeof segment !== 'string' || !Object.hasOwn(current, segment)) return { found: false };
      current = current[segment];
    } else return { found: false };
  }
  return { found: true, value: current };
}

/** True when a number stands anywhere in the value. */
function holdsNumber(value: unknown): boolean {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (typeof next === 'number') return true;
    if (isContainer(next)) pending.push(...Object.values(next));
  }
  return false;
}

/**
 * The number literals of `base` as the model wrote them in `rawOutput` (the one value there that
 * parses as `base`), or `undefined` when they are not all known: a literal rewritten to be read
 * (`.5`, `2.`), or no value of the reply that is `base`.
 */
function literalsOf(rawOutput: string, base: unknown): ReadonlyMap<string, string> | undefined {
  if (!holdsNumber(base)) return new Map();
  const key = JSON.stringify(base);
  for (const candidate of extractJsonCandidates(rawOutput, { repair: true }).candidates) {
    if (candidate.json === undefined || candidate.repairs.includes('bare-decimal-point') || JSON.stringify(candidate.value) !== key) continue;
    return numberLiterals(candidate.json);
  }
  return undefined;
}

/** Where an issue is fixed: the value at its path, or for a property that must go, the object holding it. */
function targetPath(issue: ValidationIssue): IssuePath {
  return issue.kind === 'extra' ? issue.path.slice(0, -1) : issue.path;
}

const startsWith = (path: IssuePath, prefix: IssuePath) => prefix.length <= path.length && prefix.every((segment, index) => path[index] === segment);

/**
 * The patch request for a schema failure of `base`, or `undefined` when the whole value should be
 * asked for again: the failure is not a schema failure of a parsed object or array, the rejected
 * output is shorter than `minTokens`, an issue sits at the root (or is an extra property of the
 * root), the issues sit at more than `maxPaths` paths, two paths print alike, a path is not in
 * the value (a missing property's object must be), a path prints longer than 120 characters, or
 * the values to resend would be more than
 * half of the output, or the numbers of the rejected value are not all known as the model wrote them
 * (a patched whole written with other digits would read otherwise: `1.10` where a string is due).
 * A path inside another named path is covered by it (only the outer is named).
 */
export function patchRequestOf(failure: Pick<ValidationFailure, 'stage' | 'issues' | 'rawOutput'>, base: unknown, settings: PatchSettings): PatchRequest | undefined {
  if (failure.stage !== 'schema-validate' || !isContainer(base) || failure.issues.length === 0) return undefined;
  if (failure.rawOutput.length < settings.minTokens * CHARS_PER_TOKEN) return undefined;
  const paths: IssuePath[] = [];
  for (const issue of failure.issues) {
    const path = targetPath(issue);
    if (path.length === 0) return undefined;
    if (!paths.some((known) => known.length === path.length && startsWith(path, known))) paths.push(path);
  }
  // An outer path covers the paths inside it.
  const outer = paths.filter((path) => !paths.some((other) => other !== path && other.length < path.length && startsWith(path, other)));
  if (outer.length > settings.maxPaths) return undefined;
  const targets: PatchTarget[] = [];
  const printed = new Set<string>();
  let patchedChars = 0;
  for (const path of outer) {
    const pathText = formatPath(path);
    if (printed.has(pathText) || pathText.length > MAX_PATH_CHARS) return undefined;
    printed.add(pathText);
    const at = lookup(base, path);
    if (at.found) patchedChars += JSON.stringify(at.value ?? null)?.length ?? 4;
    else if (!isRecord(lookup(base, path.slice(0, -1)).value) || typeof path[path.length - 1] !== 'string') return undefined;
    targets.push({ pathText, path });
  }
  if (patchedChars > failure.rawOutput.length * MAX_PATCHED_SHARE) return undefined;
  const literals = literalsOf(failure.rawOutput, base);
  return literals === undefined ? undefined : { targets, base, literals };
}
