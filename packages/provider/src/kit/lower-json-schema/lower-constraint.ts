import type { LoweringContext } from './lowering-context';
import { type Json, pointerText } from './schema-pointer';

/** Copies a constraint the dialect accepts; removes (and lists) one it does not. */
export function lowerConstraint(keyword: string, value: unknown, types: readonly string[], out: Json, at: readonly string[], context: LoweringContext): void {
  const { dialect, changes } = context;
  const where = (): string => pointerText(at);
  if (keyword === 'format') {
    if (types.includes('string') && typeof value === 'string' && dialect.formats.has(value)) out['format'] = value;
    else changes.push(`removed format ${JSON.stringify(value)} at ${where()}`);
    return;
  }
  if (keyword === 'pattern') {
    if (dialect.constraints.has('pattern') && types.includes('string') && typeof value === 'string' && isPlainPattern(value)) out['pattern'] = value;
    else changes.push(`removed pattern at ${where()}`);
    return;
  }
  if (keyword === 'minItems' && types.includes('array') && typeof value === 'number' && Number.isInteger(value) && value >= 0) {
    if (value <= dialect.minItemsCap) out['minItems'] = value;
    else {
      out['minItems'] = dialect.minItemsCap;
      changes.push(`lowered minItems ${value} to ${dialect.minItemsCap} at ${where()}`);
    }
    return;
  }
  const numeric = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'].includes(keyword);
  const applies = numeric ? types.includes('number') || types.includes('integer') : keyword === 'maxItems' ? types.includes('array') : true;
  if (dialect.constraints.has(keyword) && applies && typeof value === 'number' && Number.isFinite(value)) {
    out[keyword] = value;
    return;
  }
  changes.push(`removed ${keyword} at ${where()}`);
}

/**
 * A regular expression every constrained decoder reads the same way: no backreferences,
 * lookaround or word boundaries (Anthropic documents these as unsupported; OpenAI's decoder
 * has no lookaround either). Others are removed and checked by Keel alone.
 */
function isPlainPattern(pattern: string): boolean {
  if (/\\[1-9]|\\k<|\(\?[=!<]|\\[bB]/.test(pattern)) return false;
  try {
    new RegExp(pattern, 'u');
    return true;
  } catch {
    return false;
  }
}
