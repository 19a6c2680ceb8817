import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { isInternalHost } from '../services/webhook-url';

/** True when the address is not globally reachable (IANA special-purpose registries, global-address.ts): a webhook may not connect there (unless ALLOW_HTTP_WEBHOOKS=1, whose connections skip this lookup). */
export const refusedAddress = (address: string): boolean => isInternalHost(address);

/** The error a refused connection fails with. */
export const internalAddressError = (): Error => Object.assign(new Error('webhook host resolves to a non-public address'), { code: 'EREFUSED_INTERNAL' });

/**
 * A `lookup` for outgoing webhook connections that refuses internal addresses. The URL was
 * checked as text when saved, but a public name may resolve (or be re-pointed) inside the
 * network: the address actually connected to is what must be public, or the dispatcher becomes a
 * probe of the internal network. With `ALLOW_HTTP_WEBHOOKS=1` (development, tests) http-post.ts
 * connects through the ordinary lookup instead.
 */
export const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
    if (error) return callback(error, '', 4);
    if (addresses.length === 0 || addresses.some((a) => refusedAddress(a.address))) return callback(internalAddressError(), '', 4);
    if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
    callback(null, addresses[0].address, addresses[0].family);
  });
};
