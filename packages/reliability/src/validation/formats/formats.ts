import { fullFormats } from 'ajv-formats/dist/formats.js';
import { isDate, isDateTime, isTime } from './date-time';
import { isHostname } from './hostname';
import { isIpv4, isIpv6 } from './ip';
import { isIri, isIriReference, isUri, isUriReference } from './uri';

/** How one format is checked: the JSON type it applies to (other types pass) and the check. */
export interface FormatCheck {
  readonly type: 'string' | 'number';
  readonly check: (value: never) => boolean;
}

type AjvFormat = RegExp | ((value: string) => boolean) | { validate: RegExp | ((value: never) => boolean); type?: 'string' | 'number' } | true;

function fromAjv(format: AjvFormat): FormatCheck {
  if (format === true) return { type: 'string', check: () => true };
  if (format instanceof RegExp) return { type: 'string', check: (value: string) => format.test(value) };
  if (typeof format === 'function') return { type: 'string', check: format };
  const { validate, type = 'string' } = format;
  return { type, check: validate instanceof RegExp ? (value: string) => validate.test(value) : validate };
}

const LOCAL_PART = /^(?:[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*|"(?:[\x20\x21\x23-\x5b\x5d-\x7e]|\\[\x20-\x7e])*")$/i;

/** An RFC 5321 §4.1.2 mailbox: a dot-atom or quoted local part of 64 octets at most, `@`, a host name or an address literal. */
function isEmail(value: string): boolean {
  const at = value.lastIndexOf('@');
  if (at <= 0) return false;
  const local = value.slice(0, at);
  const domain = value.slice(at + 1);
  if (local.length > 64 || !LOCAL_PART.test(local)) return false;
  if (domain.startsWith('[') && domain.endsWith(']')) {
    const literal = domain.slice(1, -1);
    return /^ipv6:/i.test(literal) ? isIpv6(literal.slice(5)) : isIpv4(literal);
  }
  return isHostname(domain);
}

/** RFC 3339 Appendix A `duration`: each unit may follow only the next larger one present. */
const DURATION = /^P(?:\d+W|(?:\d+D|\d+M(?:\d+D)?|\d+Y(?:\d+M(?:\d+D)?)?)(?:T(?:\d+H(?:\d+M(?:\d+S)?)?|\d+M(?:\d+S)?|\d+S))?|T(?:\d+H(?:\d+M(?:\d+S)?)?|\d+M(?:\d+S)?|\d+S))$/;
/** RFC 4122 §3: the hex-and-hyphens form, no `urn:uuid:` prefix. */
const UUID = /^[0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12}$/i;
const VARIABLE = '(?:[a-z0-9_]|%[0-9a-f]{2})+(?:\\.(?:[a-z0-9_]|%[0-9a-f]{2})+)*(?::[1-9][0-9]{0,3}|\\*)?';
/** RFC 6570 §2: literals (no controls, DEL, quotes or brackets) and `{op var,var}` expressions. */
const URI_TEMPLATE = new RegExp(`^(?:[^\\x00-\\x20\\x7f"<>%\\\\^\`{|}]|%[0-9a-f]{2}|\\{[+#./;?&=,!@|]?${VARIABLE}(?:,${VARIABLE})*\\})*$`, 'iu');

const ajvFormats = fullFormats as unknown as Readonly<Record<string, AjvFormat>>;
const strings = (check: (value: string) => boolean): FormatCheck => ({ type: 'string', check });

/**
 * The formats Keel asserts, on both validators alike: the RFC ones are checked to their RFCs
 * (date, time, date-time, duration: RFC 3339; hostname: RFC 1123 with IDNA A-labels; email: RFC 5321;
 * ipv4, ipv6; uri, uri-reference: RFC 3986; iri, iri-reference: RFC 3987; uri-template: RFC 6570; uuid: RFC 4122), the others as ajv-formats defines them. A format
 * not listed here makes the schema invalid.
 */
export const FORMATS: Readonly<Record<string, FormatCheck>> = {
  ...Object.fromEntries(Object.entries(ajvFormats).map(([name, format]) => [name, fromAjv(format)])),
  date: strings(isDate),
  time: strings(isTime),
  'date-time': strings(isDateTime),
  hostname: strings(isHostname),
  email: strings(isEmail),
  iri: strings(isIri),
  'iri-reference': strings(isIriReference),
  ipv4: strings(isIpv4),
  ipv6: strings(isIpv6),
  uri: strings(isUri),
  'uri-reference': strings(isUriReference),
  'uri-template': strings((value) => URI_TEMPLATE.test(value)),
  duration: strings((value) => DURATION.test(value)),
  uuid: strings((value) => UUID.test(value)),
};

/** Whether `value` satisfies `format` (values of another JSON type always do); unknown formats are refused earlier, at build time. */
export function checkFormat(format: string, value: unknown): boolean {
  const known = Object.hasOwn(FORMATS, format) ? FORMATS[format] : undefined;
  if (!known) return true;
  if (known.type === 'number' ? typeof value !== 'number' : typeof value !== 'string') return true;
  return (known.check as (value: unknown) => boolean)(value);
}
