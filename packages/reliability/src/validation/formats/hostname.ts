import { decodePunycode } from './punycode';

const LDH_LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i;
/** IDNA 2008 exceptions (RFC 5892 §2.6): always valid, always invalid. */
const PVALID = new Set([0xdf, 0x3c2, 0x6fd, 0x6fe, 0xf0b, 0x3007]);
const DISALLOWED = new Set([0x640, 0x7fa, 0x302e, 0x302f, 0x3031, 0x3032, 0x3033, 0x3034, 0x3035, 0x303b]);
/** Code points of the Virama combining class (ccc 9) in common scripts, for the joiners' rule. */
const VIRAMA = new Set([0x94d, 0x9cd, 0xa4d, 0xacd, 0xb4d, 0xbcd, 0xc4d, 0xccd, 0xd3b, 0xd3c, 0xd4d, 0xdca, 0xe3a, 0xeba, 0xf84, 0x1039, 0x103a, 0x1714, 0x1734, 0x17d2, 0x1a60, 0x1b44, 0x1baa, 0x1bab, 0x1bf2, 0x1bf3, 0x2d7f, 0xa806, 0xa8c4, 0xa953, 0xa9c0, 0xaaf6, 0xabed]);
/** Code points valid only in context (RFC 5892 Appendix A), besides the two runs of Arabic digits. */
const CONTEXTUAL = new Set([0x200c, 0x200d, 0xb7, 0x375, 0x5f3, 0x5f4, 0x30fb]);
const LETTER_LIKE = /^[\p{Ll}\p{Lo}\p{Lm}\p{Mn}\p{Mc}\p{Nd}]$/u;
const JOINING = /^[\p{Script=Arabic}\p{Script=Syriac}\p{Script=Nko}\p{Script=Mongolian}]$/u;
const GREEK = /^\p{Script=Greek}$/u;
const HEBREW = /^\p{Script=Hebrew}$/u;
const KANA_HAN = /^[\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Han}]$/u;

const at = (points: readonly number[], index: number): string => (index >= 0 && index < points.length ? String.fromCodePoint(points[index] as number) : '');

/** The contextual rules of RFC 5892 Appendix A for one code point; true when it may stand here. */
function contextAllows(points: readonly number[], index: number): boolean {
  const point = points[index] as number;
  const before = at(points, index - 1);
  const after = at(points, index + 1);
  switch (point) {
    case 0x200c:
      return VIRAMA.has(points[index - 1] ?? -1) || (JOINING.test(before) && JOINING.test(after));
    case 0x200d:
      return VIRAMA.has(points[index - 1] ?? -1);
    case 0xb7:
      return before === 'l' && after === 'l';
    case 0x375:
      return GREEK.test(after);
    case 0x5f3:
    case 0x5f4:
      return HEBREW.test(before);
    case 0x30fb:
      return points.some((other) => other !== 0x30fb && KANA_HAN.test(String.fromCodePoint(other)));
    default:
      if (point >= 0x660 && point <= 0x669) return !points.some((other) => other >= 0x6f0 && other <= 0x6f9);
      if (point >= 0x6f0 && point <= 0x6f9) return !points.some((other) => other >= 0x660 && other <= 0x669);
      return false;
  }
}

function codePointAllowed(points: readonly number[], index: number): boolean {
  const point = points[index] as number;
  if (DISALLOWED.has(point)) return false;
  if (PVALID.has(point) || point === 0x2d) return true;
  if (CONTEXTUAL.has(point) || (point >= 0x660 && point <= 0x669) || (point >= 0x6f0 && point <= 0x6f9)) return contextAllows(points, index);
  return LETTER_LIKE.test(String.fromCodePoint(point));
}

/** Whether code points form a valid U-label (RFC 5891 §4.2, RFC 5892). */
function isULabel(points: readonly number[]): boolean {
  if (points.length === 0 || points.length > 63 || points.every((point) => point < 0x80)) return false;
  const text = String.fromCodePoint(...points);
  if (text.normalize('NFC') !== text) return false;
  if (text.slice(2, 4) === '--' || text.startsWith('-') || text.endsWith('-')) return false;
  if (/^\p{M}/u.test(text)) return false;
  return points.every((_, index) => codePointAllowed(points, index));
}

/** Whether an `xn--` label is an A-label: valid Punycode of a valid U-label. */
function isALabel(label: string): boolean {
  const points = decodePunycode(label.slice(4).toLowerCase());
  return points !== undefined && isULabel(points);
}

function isAsciiLabel(label: string): boolean {
  if (!LDH_LABEL.test(label)) return false;
  if (label.slice(2, 4) !== '--') return true;
  return label.slice(0, 4).toLowerCase() === 'xn--' && isALabel(label);
}

/**
 * A host name as RFC 1123 §2.1 and RFC 5891 define it: dot-separated labels of letters, digits and
 * inner hyphens, 1 to 63 characters each, 253 at most in all, no trailing dot; a label with `--` in
 * its 3rd and 4th positions must be a valid A-label (`xn--` and Punycode of a valid U-label).
 */
export function isHostname(value: string): boolean {
  if (value.length === 0 || value.length > 253) return false;
  return value.split('.').every(isAsciiLabel);
}

