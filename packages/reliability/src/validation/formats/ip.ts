const IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;
const HEX_GROUP = /^[0-9a-f]{1,4}$/i;

/** A dotted-quad IPv4 address (RFC 2673 §3.2): four decimal octets, no leading zeros. */
export function isIpv4(value: string): boolean {
  return IPV4.test(value);
}

const groupsOf = (part: string): string[] => (part === '' ? [] : part.split(':'));

/** An IPv6 address as RFC 4291 §2.2 writes it: eight hex groups, at most one `::`, an optional IPv4 tail; ASCII only. */
export function isIpv6(value: string): boolean {
  let text = value;
  let slots = 8;
  const lastColon = text.lastIndexOf(':');
  if (lastColon >= 0 && text.slice(lastColon + 1).includes('.')) {
    if (!isIpv4(text.slice(lastColon + 1))) return false;
    // The IPv4 tail fills two groups: stand one placeholder group in for it.
    text = `${text.slice(0, lastColon + 1)}0`;
    slots = 7;
  }
  const halves = text.split('::');
  if (halves.length > 2) return false;
  const groups = halves.length === 2 ? [...groupsOf(halves[0] as string), ...groupsOf(halves[1] as string)] : text.split(':');
  if (!groups.every((group) => HEX_GROUP.test(group))) return false;
  return halves.length === 2 ? groups.length < slots : groups.length === slots;
}
