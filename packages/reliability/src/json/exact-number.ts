/**
 * Why a JSON number literal cannot be held as a JavaScript number without changing it, or
 * `undefined` when it can: a whole number with more digits than a double keeps
 * (`9007199254740993` would become `9007199254740992`), a magnitude past the largest double
 * (`1e400` would become `Infinity`), or a non-zero value too small for one (`1e-400` would become
 * `0`). A fraction's usual rounding (`0.1`) is not a change: the nearest double is what the
 * literal means in JavaScript, unless the number is 2^53 or more, where a double holds no fraction
 * and not every whole number (`9007199254740993.2` would become `9007199254740994`). `literal` must match JSON's number grammar.
 */
export function numberLoss(literal: string): string | undefined {
  // At most 15 digits and no exponent: always exact (below 2^53, or a plain fraction).
  if (literal.length <= 15 && !/[eE]/.test(literal)) return undefined;
  const value = Number(literal);
  if (!Number.isFinite(value)) return 'is too large for a number';
  const written = decimal(literal);
  if (written === undefined) return undefined;
  if (value === 0) return 'is too small for a number (it would become 0)';
  // A fraction: rounding to the nearest double is what the literal means, as long as its whole part
  // is held exactly (below 2^53; past it, "9007199254740993.2" would become 9007199254740994).
  if (written.exponent < 0) {
    if (Math.abs(value) < 2 ** 53) return undefined;
    return `has more digits than a number holds exactly (it would become ${String(value)})`;
  }
  const held = decimal(String(Math.abs(value)));
  return held !== undefined && held.digits === written.digits && held.exponent === written.exponent
    ? undefined
    : `has more digits than a number holds exactly (it would become ${String(value)})`;
}

/** A non-zero decimal as significant digits times 10^exponent (no leading or trailing zeros); `undefined` for zero. */
function decimal(text: string): { readonly digits: string; readonly exponent: number } | undefined {
  const match = /^-?(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (!match) return undefined;
  const fraction = match[2] ?? '';
  const all = `${match[1]}${fraction}`.replace(/^0+/, '');
  if (all === '') return undefined;
  const digits = all.replace(/0+$/, '');
  return { digits, exponent: Number(match[3] ?? '0') - fraction.length + (all.length - digits.length) };
}
