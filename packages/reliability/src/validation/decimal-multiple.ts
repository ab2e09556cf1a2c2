/** The decimal reading of a finite number: `[coefficient, exponent]`, the value being coefficient × 10^exponent. */
function decimal(value: number): [bigint, number] {
  const [mantissa = '0', exponent = '0'] = Math.abs(value).toString().split('e');
  const point = mantissa.indexOf('.');
  const fraction = point < 0 ? 0 : mantissa.length - point - 1;
  return [BigInt(mantissa.replace('.', '')), Number(exponent) - fraction];
}

/**
 * Whether `value` is a whole multiple of `divisor`, computed on the decimal numbers the JSON text
 * wrote (`0.3` is a multiple of `0.1`), never with floating-point division. Infinite values are not.
 */
export function isMultipleOf(value: number, divisor: number): boolean {
  if (!Number.isFinite(value) || !Number.isFinite(divisor) || divisor <= 0) return false;
  const [coefficient, exponent] = decimal(value);
  const [divisorCoefficient, divisorExponent] = decimal(divisor);
  const shift = exponent - divisorExponent;
  if (shift >= 0) return (coefficient * 10n ** BigInt(shift)) % divisorCoefficient === 0n;
  return coefficient % (divisorCoefficient * 10n ** BigInt(-shift)) === 0n;
}
