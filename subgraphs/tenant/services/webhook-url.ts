import { isIP } from 'node:net';
import { parseHttpUrl } from '../../common/field-rules';
import { isGlobalAddress } from './global-address';

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
  if (isInternalHost(url.hostname)) return 'url must point to a globally reachable address (not a private, loopback, link-local or other special-purpose one)';
  return null;
}

/**
 * True for `localhost` names and IP literals that are not globally reachable (global-address.ts:
 * the IANA special-purpose registries). Other names are judged when delivered, on the address
 * they resolve to.
 */
export function isInternalHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  const bare = host.replace(/^\[|\]$/g, '');
  return isIP(bare.split('%')[0]) !== 0 && !isGlobalAddress(bare);
}
