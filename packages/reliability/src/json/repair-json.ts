import { jsonrepair } from 'jsonrepair';
import type { JsonDefect, JsonRepair } from './repair-names';
import { applyEdits } from './json-text';
import { type LenientScan, scanLenientJson } from './scan-lenient-json';

/** Deepest nesting repaired locally (the repair library recurses per level). */
export const MAX_REPAIR_DEPTH = 512;

/** Outcome of {@link repairJson}. */
export type RepairJsonResult =
  | {
      readonly ok: true;
      readonly value: unknown;
      readonly repairs: readonly JsonRepair[];
      /** The strict JSON text the value was parsed from. */
      readonly json?: string;
      /** Bare text stands in the value, marked (see `BARE_MARK`): usable only once a schema resolves it. */
      readonly bare?: { readonly message: string };
    }
  | { readonly ok: false; readonly defect: JsonDefect; readonly message: string };

/**
 * Repairs one JSON-like value, losslessly or not at all. Keel's scanner names every repair the
 * text needs and refuses any that would guess content; commas are fixed here (in one pass), the
 * rest by `jsonrepair`; the result is scanned again and must hold exactly the same tokens, so a
 * repair that changed content is never accepted. Linear in the text's length.
 */
export function repairJson(text: string, scanned?: LenientScan): RepairJsonResult {
  const scan = scanned ?? scanLenientJson(text);
  if (!scan.ok) return { ok: false, defect: scan.defect, message: `${scan.message} (at position ${scan.position})` };
  if (scan.maxDepth > MAX_REPAIR_DEPTH) return { ok: false, defect: 'too-deep', message: `the value nests ${scan.maxDepth} levels deep, more than ${MAX_REPAIR_DEPTH} repaired locally` };
  let repaired: string;
  let value: unknown;
  try {
    repaired = scan.repairs.size === 0 && scan.edits.length === 0 ? text : jsonrepair(applyEdits(text, scan.edits));
    value = JSON.parse(repaired);
  } catch (error) {
    return { ok: false, defect: 'syntax', message: error instanceof Error ? error.message : String(error) };
  }
  const check = scanLenientJson(repaired);
  if (!check.ok || !sameTokens(check.signature, scan.signature)) {
    return { ok: false, defect: 'syntax', message: 'the value cannot be repaired without changing its content' };
  }
  if (scan.bare) return { ok: true, value, repairs: [...scan.repairs], json: repaired, bare: { message: `${scan.bare.message} (at position ${scan.bare.position})` } };
  return { ok: true, value, repairs: [...scan.repairs], json: repaired };
}

function sameTokens(left: readonly string[], right: readonly string[]): boolean {
  if (left.length !== right.length) return false;
  for (let index = 0; index < left.length; index++) if (left[index] !== right[index]) return false;
  return true;
}
