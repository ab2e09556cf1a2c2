import { extractJsonCandidates } from '../json/extract-json';
import { numberLiterals, pathKey } from '../json/number-literals';
import type { IssuePath } from '../validation/issue';
import { applyPatch } from './apply-patch';
import type { PatchRequest } from './patch-request';
import { writeJson } from './write-json';

/**
 * How a reply to a patch request reads:
 * - `complete`: not a patch; judge the reply as a complete value, as any reply.
 * - `patch`: a patch that applied; `text` is the patched whole value as JSON, to be judged as one
 *   reply (validated whole), `keys` the printed paths it set.
 * - `refused`: a patch that cannot be taken (it sets a path that was not named, a path that does
 *   not exist, or is not one JSON object); never taken as a complete value either.
 */
type PatchReading =
  | { readonly type: 'complete' }
  | { readonly type: 'patch'; readonly value: unknown; readonly text: string; readonly keys: readonly string[] }
  | { readonly type: 'refused'; readonly message: string };

const COMPLETE: PatchReading = Object.freeze({ type: 'complete' });

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Reads a reply to a patch request, deterministically:
 * 1. The JSON values in the reply are found as for any answer (fences and prose around them allowed,
 *    lossless repairs only).
 * 2. A value is *patch-shaped* when it is an object with at least one key the feedback named and it
 *    does not hold every top-level key of the rejected object. (An object that holds them all is a
 *    complete value; where its keys are also all named, reading it as a patch gives the same value.)
 * 3. No patch-shaped value: the reply is `complete`.
 * 4. Exactly one value, patch-shaped, every key named, every path present: `patch`.
 * 5. Anything else with a patch-shaped value (a key not named, a path that is not in the value,
 *    bare words, or other values beside it): `refused`.
 */
export function readPatchReply(text: string, request: PatchRequest): PatchReading {
  const named = new Set(request.targets.map((target) => target.pathText));
  const baseKeys = isRecord(request.base) ? Object.keys(request.base) : undefined;
  const found = extractJsonCandidates(text, { repair: true });
  const patchShaped = (value: unknown): value is Record<string, unknown> => {
    if (!isRecord(value)) return false;
    const keys = Object.keys(value);
    if (!keys.some((key) => named.has(key))) return false;
    return !(baseKeys !== undefined && baseKeys.length > 0 && baseKeys.every((key) => Object.hasOwn(value, key)));
  };
  const shaped = found.candidates.filter((candidate) => patchShaped(candidate.value));
  if (shaped.length === 0) return COMPLETE;
  if (found.candidates.length > 1 || found.truncated || (found.rejected?.length ?? 0) > 0) {
    return { type: 'refused', message: 'the reply held a patch and something else; reply with exactly one JSON object of corrected values' };
  }
  const candidate = shaped[0] as (typeof shaped)[number];
  if (candidate.unquoted) return { type: 'refused', message: `the patch cannot be used: ${candidate.unquoted.message}` };
  const entries = candidate.value as Record<string, unknown>;
  const stray = Object.keys(entries).filter((key) => !named.has(key));
  if (stray.length > 0) return { type: 'refused', message: `the patch sets ${stray.map((key) => JSON.stringify(key)).join(', ')}, which the feedback did not name` };
  const applied = applyPatch(request, entries);
  if (!applied.ok) return { type: 'refused', message: applied.message };
  const keys = Object.keys(entries);
  const literals = candidate.json === undefined ? undefined : numberLiterals(candidate.json);
  const targets = request.targets.filter((target) => keys.includes(target.pathText));
  // Every number is written as the model wrote it: those the patch set as in the patch, the rest as in the rejected reply.
  const literalAt = (path: IssuePath): string | undefined => {
    for (const target of targets) {
      if (target.path.length <= path.length && target.path.every((segment, index) => path[index] === segment)) return literals?.get(pathKey([target.pathText, ...path.slice(target.path.length)]));
    }
    return request.literals?.get(pathKey(path));
  };
  return { type: 'patch', value: applied.value, text: writeJson(applied.value, literalAt), keys };
}
