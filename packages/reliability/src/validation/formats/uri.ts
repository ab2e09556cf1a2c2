import { isIpv4, isIpv6 } from './ip';

/** RFC 3986 Appendix B: splits a reference into scheme, authority, path, query and fragment. */
const PARTS = /^(?:([^:/?#]+):)?(?:\/\/([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#(.*))?$/s;
const SCHEME = /^[a-z][a-z0-9+.-]*$/i;
const PCT = '%[0-9a-f]{2}';
const UNRESERVED_SUB = "-a-z0-9._~!$&'()*+,;=";
/** RFC 3987 `ucschar` and `iprivate`: the characters an IRI adds to a URI's unreserved ones. */
const UCS = '\\u{a0}-\\u{d7ff}\\u{f900}-\\u{fdcf}\\u{fdf0}-\\u{ffef}\\u{e000}-\\u{f8ff}\\u{10000}-\\u{10fffd}';

/** The character classes of each component, for URIs (ASCII) or IRIs (with `ucschar`). */
function components(international: boolean) {
  const extra = international ? UCS : '';
  const of = (chars: string) => new RegExp(`^(?:[${UNRESERVED_SUB}${extra}${chars}]|${PCT})*$`, 'iu');
  return { userinfo: of(':'), regName: of(''), path: of(':@/'), query: of(':@/?') };
}
const URI_PARTS = components(false);
const IRI_PARTS = components(true);
type Parts = typeof URI_PARTS;
const IP_FUTURE = /^v[0-9a-f]+\.[a-z0-9._~!$&'()*+,;=:-]+$/i;
const PORT = /^[0-9]*$/;

function isHost(host: string, parts: Parts): boolean {
  if (host.startsWith('[')) {
    if (!host.endsWith(']')) return false;
    const literal = host.slice(1, -1);
    return isIpv6(literal) || IP_FUTURE.test(literal);
  }
  return isIpv4(host) || parts.regName.test(host);
}

function isAuthority(authority: string, parts: Parts): boolean {
  const userEnd = authority.lastIndexOf('@');
  if (userEnd >= 0 && !parts.userinfo.test(authority.slice(0, userEnd))) return false;
  const hostPort = authority.slice(userEnd + 1);
  const portStart = hostPort.startsWith('[') ? hostPort.indexOf(':', hostPort.indexOf(']')) : hostPort.indexOf(':');
  const host = portStart >= 0 ? hostPort.slice(0, portStart) : hostPort;
  if (portStart >= 0 && !PORT.test(hostPort.slice(portStart + 1))) return false;
  return isHost(host, parts);
}

/** Whether `value` is a URI reference (RFC 3986 §4.1); `absolute` requires a scheme (a URI, §3). */
function isReference(value: string, absolute: boolean, parts: Parts): boolean {
  const split = PARTS.exec(value);
  if (!split) return false;
  const [, scheme, authority, path = '', query, fragment] = split;
  if (scheme === undefined ? absolute : !SCHEME.test(scheme)) return false;
  if (authority !== undefined && !isAuthority(authority, parts)) return false;
  if (!parts.path.test(path)) return false;
  if (authority === undefined && path.startsWith('//')) return false;
  // A relative reference's first segment may not hold a colon (it would read as a scheme).
  if (scheme === undefined && authority === undefined && !path.startsWith('/') && (path.split('/')[0] ?? '').includes(':')) return false;
  if (query !== undefined && !parts.query.test(query)) return false;
  return fragment === undefined || parts.query.test(fragment);
}

/** A URI (RFC 3986 §3): a scheme, then an authority whose port is digits, a path, a query and a fragment, ASCII only. */
export function isUri(value: string): boolean {
  return isReference(value, true, URI_PARTS);
}

/** A URI or a relative reference (RFC 3986 §4.1). */
export function isUriReference(value: string): boolean {
  return isReference(value, false, URI_PARTS);
}

/** An IRI (RFC 3987 §2.2): a URI that may also hold non-ASCII characters (`ucschar`, `iprivate`). */
export function isIri(value: string): boolean {
  return isReference(value, true, IRI_PARTS);
}

/** An IRI or a relative IRI reference (RFC 3987 §2.2). */
export function isIriReference(value: string): boolean {
  return isReference(value, false, IRI_PARTS);
}
