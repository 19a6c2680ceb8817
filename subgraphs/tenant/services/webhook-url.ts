import { isIP } from 'node:net';
import { parseHttpUrl } from '../../common/field-rules';

/**
 * Why the text cannot be a webhook endpoint, or null when it can. Only the URL itself is judged:
 * no DNS lookup happens here (a name may resolve anywhere later), so the delivery side must
 * check the address it actually connects to.
 */
export function webhookUrlProblem(text: string, allowInsecure: boolean): string | null {
  const url = parseHttpUrl(text);
  if (!url) return 'url must be an absolute https URL';
  if (url.username || url.password) return 'url must not contain credentials';
  if (allowInsecure) return null;
  if (url.protocol !== 'https:') return 'url must use https';
  if (isInternalHost(url.hostname)) return 'url must not point to a private, loopback or link-local address';
  return null;
}

/** True for `localhost` names and IP literals in loopback, private, link-local or otherwise non-public ranges. */
export function isInternalHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (isIP(host) === 4) return internalV4(host.split('.').map(Number));
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  return isIP(bare) === 6 ? internalV6(expandV6(bare)) : false;
}

function internalV4([a, b, c]: number[]): boolean {
  return (
    a === 0 || // "this network": 0.0.0.0 reaches the local host on Linux
    a === 10 ||
    a === 127 ||
    (a === 100 && b >= 64 && b <= 127) || // carrier-grade NAT shared space
    (a === 169 && b === 254) ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 0 && c === 0) || // IETF protocol assignments
    (a === 192 && b === 168) ||
    (a === 198 && (b === 18 || b === 19)) || // benchmarking
    a >= 224 // multicast, reserved, broadcast
  );
}

function internalV6(groups: number[]): boolean {
  const zeroUpTo = (n: number) => groups.slice(0, n).every((g) => g === 0);
  if (zeroUpTo(7) && groups[7] <= 1) return true; // :: and ::1
  if ((groups[0] & 0xfe00) === 0xfc00) return true; // fc00::/7 unique local
  if ((groups[0] & 0xffc0) === 0xfe80) return true; // fe80::/10 link-local
  if ((groups[0] & 0xff00) === 0xff00) return true; // ff00::/8 multicast
  if (groups[0] === 0x2002) return internalV4([groups[1] >> 8, groups[1] & 0xff, groups[2] >> 8]); // 6to4 embeds an IPv4 address
  const embedded = [groups[6] >> 8, groups[6] & 0xff];
  // IPv4-mapped (::ffff:a.b.c.d), IPv4-compatible (::a.b.c.d) and NAT64 (64:ff9b::a.b.c.d) carry an IPv4 address.
  if ((zeroUpTo(5) && (groups[5] === 0xffff || groups[5] === 0)) || (groups[0] === 0x64 && groups[1] === 0xff9b && groups.slice(2, 6).every((g) => g === 0))) {
    return internalV4(embedded);
  }
  return false;
}

/** Eight 16-bit groups of an IPv6 address; a dotted IPv4 tail counts as two groups. */
function expandV6(address: string): number[] {
  const withoutZone = address.split('%')[0];
  const [head, tail] = withoutZone.includes('::') ? withoutZone.split('::') : [withoutZone, undefined];
  const group = (g: string) => {
    if (!g.includes('.')) return [parseInt(g, 16)];
    const [a, b, c, d] = g.split('.').map(Number);
    return [(a << 8) | b, (c << 8) | d];
  };
  const parse = (part: string | undefined) => (part ? part.split(':').flatMap(group) : []);
  const left = parse(head);
  const right = parse(tail);
  return tail === undefined ? left : [...left, ...new Array(8 - left.length - right.length).fill(0), ...right];
}
