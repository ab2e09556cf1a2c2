const BASE = 36;
const T_MIN = 1;
const T_MAX = 26;
const SKEW = 38;
const DAMP = 700;
const MAX_CODE_POINT = 0x10ffff;

function adapt(delta: number, points: number, first: boolean): number {
  let scaled = first ? Math.floor(delta / DAMP) : delta >> 1;
  scaled += Math.floor(scaled / points);
  let k = 0;
  while (scaled > ((BASE - T_MIN) * T_MAX) >> 1) {
    scaled = Math.floor(scaled / (BASE - T_MIN));
    k += BASE;
  }
  return k + Math.floor(((BASE - T_MIN + 1) * scaled) / (scaled + SKEW));
}

function digitOf(character: string): number {
  const code = character.charCodeAt(0);
  if (code >= 0x30 && code <= 0x39) return code - 22;
  if (code >= 0x41 && code <= 0x5a) return code - 0x41;
  if (code >= 0x61 && code <= 0x7a) return code - 0x61;
  return BASE;
}

/**
 * Decodes the Punycode part of an A-label (RFC 3492, the text after `xn--`) into its code points,
 * or `undefined` when it is not valid Punycode (a bad digit, an overflow, a truncated number).
 */
export function decodePunycode(input: string): number[] | undefined {
  const delimiter = input.lastIndexOf('-');
  const output: number[] = [];
  for (let index = 0; index < Math.max(delimiter, 0); index++) {
    const code = input.charCodeAt(index);
    if (code >= 0x80) return undefined;
    output.push(code);
  }
  let n = 128;
  let i = 0;
  let bias = 72;
  for (let position = delimiter >= 0 ? delimiter + 1 : 0; position < input.length; ) {
    const before = i;
    let weight = 1;
    for (let k = BASE; ; k += BASE) {
      if (position >= input.length) return undefined;
      const digit = digitOf(input[position++] as string);
      if (digit >= BASE) return undefined;
      i += digit * weight;
      if (i > MAX_CODE_POINT * (output.length + 1) * 2) return undefined;
      const threshold = k <= bias ? T_MIN : k >= bias + T_MAX ? T_MAX : k - bias;
      if (digit < threshold) break;
      weight *= BASE - threshold;
    }
    bias = adapt(i - before, output.length + 1, before === 0);
    n += Math.floor(i / (output.length + 1));
    if (n > MAX_CODE_POINT) return undefined;
    i %= output.length + 1;
    output.splice(i, 0, n);
    i++;
  }
  return output;
}
