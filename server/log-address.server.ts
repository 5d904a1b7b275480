import { isIPv4, isIPv6 } from 'node:net';

/**
 * The network a client address belongs to, for a log line: the first three
 * parts of an IPv4 address (a /24, `203.0.113.0/24`), the first three groups
 * of an IPv6 one (a /48, `2001:db8:abcd::/48`, what a provider gives one
 * customer's site). Enough to see where a flood comes from and to block it;
 * not the visitor's own address, which the privacy policy says is used for
 * ten minutes and not kept. An IPv4 address in IPv6 form (`::ffff:…`, from a
 * server listening on both) counts as IPv4. Anything else gives undefined.
 */
export function addressNetwork(address: string | undefined): string | undefined {
  if (!address) return undefined;
  const mapped = address.toLowerCase().startsWith('::ffff:') ? address.slice(7) : address;
  if (isIPv4(mapped)) return `${mapped.split('.').slice(0, 3).join('.')}.0/24`;
  // A zone (`fe80::1%eth0`) names the server's own interface, not the client.
  const withoutZone = address.split('%')[0] ?? '';
  if (!isIPv6(withoutZone)) return undefined;
  // The URL parser writes an IPv6 address in its one canonical form:
  // lower case, no leading zeros, dotted tails in hex, the longest run of
  // zero groups as `::`.
  const groups = expand(new URL(`http://[${withoutZone}]/`).hostname.slice(1, -1));
  const network = [...groups.slice(0, 3), '0', '0', '0', '0', '0'].join(':');
  return `${new URL(`http://[${network}]/`).hostname.slice(1, -1)}/48`;
}

/** The eight groups of a canonical IPv6 address (at most one `::`). */
function expand(canonical: string): string[] {
  const [head = '', tail] = canonical.split('::');
  const before = head === '' ? [] : head.split(':');
  if (tail === undefined) return before;
  const after = tail === '' ? [] : tail.split(':');
  return [...before, ...Array<string>(8 - before.length - after.length).fill('0'), ...after];
}
