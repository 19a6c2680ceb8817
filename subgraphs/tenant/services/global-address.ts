import ipaddr from 'ipaddr.js';
import { isIP } from 'node:net';

// ipaddr.js names every range of the IANA special-purpose address registries
// (https://www.iana.org/assignments/iana-ipv4-special-registry, .../iana-ipv6-special-registry).
// These are the only names whose entries the registries mark "Globally Reachable: True"; every
// other name (private, loopback, linkLocal, carrierGradeNat, reserved (which holds the TEST-NETs,
// benchmarking, 192.0.0.0/24 and 240.0.0.0/4), unspecified, broadcast, multicast, discard, teredo,
// benchmarking, rfc6145, uniqueLocal, ...) is refused. 'unicast' is what no special range matched.
const GLOBAL_V4 = new Set(['unicast', 'as112', 'amt']);
const GLOBAL_V6 = new Set(['unicast', 'as112v6', 'amt', 'orchid2', 'droneRemoteIdProtocolEntityTags']);

// The IANA IPv6 Address Space registry allocates only 2000::/3 as global unicast: this refuses what
// the special-purpose registry lists but ipaddr.js 2.5.0 does not name (100:0:0:1::/64, the dummy
// prefix of RFC 9780; the deprecated IPv4-compatible ::/96) and anything allocated later.
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');
// RFC 6052's well-known NAT64 prefix carries an IPv4 address and is globally reachable when that
// address is; the local-use 64:ff9b:1::/48 (RFC 8215) that ipaddr.js names alike is not.
const NAT64_WELL_KNOWN = ipaddr.parseCIDR('64:ff9b::/96');

/** True when an IP address (text, IPv6 with or without brackets or a zone) is globally reachable by the IANA registries. */
export function isGlobalAddress(text: string): boolean {
  const bare = text.replace(/^\[|\]$/g, '');
  if (!isIP(bare.split('%')[0])) return false;
  return isGlobal(ipaddr.parse(bare));
}

function isGlobal(address: ipaddr.IPv4 | ipaddr.IPv6): boolean {
  if (address.kind() === 'ipv4') return GLOBAL_V4.has(address.range());
  const v6 = address as ipaddr.IPv6;
  // A mapped address is connected to as its IPv4 address, so that is what is judged.
  if (v6.isIPv4MappedAddress()) return isGlobal(v6.toIPv4Address());
  if (v6.match(NAT64_WELL_KNOWN as [ipaddr.IPv6, number])) return isGlobal(embeddedV4(v6, 12));
  // 6to4 (2002::/16) carries its relay's IPv4 address in bits 16-47.
  if (v6.range() === '6to4') return isGlobal(embeddedV4(v6, 2));
  return v6.match(GLOBAL_UNICAST_V6 as [ipaddr.IPv6, number]) && GLOBAL_V6.has(v6.range());
}

/** The IPv4 address in bytes `at`..`at + 3` of an IPv6 address. */
function embeddedV4(address: ipaddr.IPv6, at: number): ipaddr.IPv4 {
  return new ipaddr.IPv4(address.toByteArray().slice(at, at + 4));
}
