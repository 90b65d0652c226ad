import { BlockList, isIP } from 'node:net';

/**
 * Which addresses a webhook may reach. Used twice: on the literal host of a configured URL (the
 * URL rules) and on every address the host resolves to at connect time (so DNS cannot get around
 * the rules).
 */
export type AddressClass = 'public' | 'loopback' | 'private' | 'link-local' | 'unspecified' | 'multicast' | 'reserved';

function list(entries: Array<[string, number, 'ipv4' | 'ipv6']>): BlockList {
  const b = new BlockList();
  for (const [net, prefix, type] of entries) b.addSubnet(net, prefix, type);
  return b;
}

const RANGES: Array<[AddressClass, BlockList]> = [
  [
    'unspecified',
    list([
      ['0.0.0.0', 8, 'ipv4'],
      ['::', 128, 'ipv6'],
    ]),
  ],
  [
    'loopback',
    list([
      ['127.0.0.0', 8, 'ipv4'],
      ['::1', 128, 'ipv6'],
    ]),
  ],
  [
    'private',
    list([
      ['10.0.0.0', 8, 'ipv4'],
      ['172.16.0.0', 12, 'ipv4'],
      ['192.168.0.0', 16, 'ipv4'],
      ['100.64.0.0', 10, 'ipv4'], // carrier-grade NAT
      ['fc00::', 7, 'ipv6'], // unique local
      ['fec0::', 10, 'ipv6'], // site-local (deprecated, still routed privately)
    ]),
  ],
  [
    'link-local',
    list([
      ['169.254.0.0', 16, 'ipv4'],
      ['fe80::', 10, 'ipv6'],
    ]),
  ],
  [
    'multicast',
    list([
      ['224.0.0.0', 4, 'ipv4'],
      ['ff00::', 8, 'ipv6'],
    ]),
  ],
  [
    'reserved',
    list([
      ['192.0.0.0', 24, 'ipv4'],
      ['192.0.2.0', 24, 'ipv4'],
      ['198.18.0.0', 15, 'ipv4'],
      ['198.51.100.0', 24, 'ipv4'],
      ['203.0.113.0', 24, 'ipv4'],
      ['240.0.0.0', 4, 'ipv4'], // includes 255.255.255.255
      ['2001:db8::', 32, 'ipv6'],
      ['100::', 64, 'ipv6'], // discard-only
      ['2001::', 23, 'ipv6'], // IETF protocol assignments (Teredo, ORCHID, …)
      ['2002::', 16, 'ipv6'], // 6to4 embeds an IPv4 address that may be private
      ['64:ff9b::', 96, 'ipv6'], // NAT64 embeds an IPv4 address
      ['64:ff9b:1::', 48, 'ipv6'],
      ['::', 96, 'ipv6'], // IPv4-compatible (deprecated); :: and ::1 are matched above
      ['::ffff:0:0:0', 96, 'ipv6'], // IPv4-translated
    ]),
  ],
];

/**
 * The IPv4 address inside an IPv4-mapped IPv6 address (::ffff:a.b.c.d), judged as that IPv4 address.
 * The URL parser canonicalises every spelling (expanded, dotted, upper case) to `::ffff:x:y` first.
 */
function mappedIpv4(address: string): string | undefined {
  let canonical: string;
  try {
    canonical = new URL(`http://[${address}]/`).hostname;
  } catch {
    return undefined;
  }
  const m = /^\[::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})\]$/.exec(canonical);
  if (!m) return undefined;
  const hi = parseInt(m[1]!, 16);
  const lo = parseInt(m[2]!, 16);
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}

/** Classifies a literal IP address; anything that is not an IP address at all is `reserved`. */
export function classifyAddress(address: string): AddressClass {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  const family = isIP(bare);
  if (family === 0) return 'reserved';
  if (family === 6) {
    const v4 = mappedIpv4(bare);
    if (v4 !== undefined && isIP(v4) === 4) return classifyAddress(v4);
  }
  const type = family === 4 ? 'ipv4' : 'ipv6';
  for (const [cls, blocks] of RANGES) if (blocks.check(bare, type)) return cls;
  return 'public';
}

export function isPublicUnicast(address: string): boolean {
  return classifyAddress(address) === 'public';
}
