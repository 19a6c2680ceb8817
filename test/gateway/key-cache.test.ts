import type { KeyPrincipal } from '../../subgraphs/tenant/services/api-key.service';
import { KeyCache } from '../../gateway/http/key-cache';
import { FULL_ACCESS } from '../../schema/scopes';

const principal: KeyPrincipal = { keyId: 'key-1', tenantId: 'tenant-1', scopes: FULL_ACCESS, expiresAt: null, livemode: true, liveTenantId: 'tenant-1' };

/** A verification the test answers by hand, to interleave it with a revocation. */
function pendingVerify() {
  const calls: Array<(result: KeyPrincipal | null) => void> = [];
  const verify = (_key: string) => new Promise<KeyPrincipal | null>((resolve) => calls.push(resolve));
  return { verify, calls };
}

/** The in-process cache of verified API keys in front of the key store. */
describe('KeyCache', () => {
  it('answers a repeated key from memory and verifies again after clear()', async () => {
    const { verify, calls } = pendingVerify();
    const cache = new KeyCache(verify);
    const first = cache.principal('k');
    calls[0](principal);
    await expect(first).resolves.toBe(principal);
    await expect(cache.principal('k')).resolves.toBe(principal);
    expect(calls).toHaveLength(1);
    cache.clear();
    const again = cache.principal('k');
    expect(calls).toHaveLength(2);
    calls[1](null);
    await expect(again).resolves.toBeNull();
  });

  it('cached() knows only a fresh, successful verification: never a failed one, nothing after clear() or the time to live', async () => {
    const { verify, calls } = pendingVerify();
    const cache = new KeyCache(verify, 50);
    expect(cache.cached('k')).toBeUndefined();
    const first = cache.principal('k');
    calls[0](principal);
    await first;
    expect(cache.cached('k')).toBe(principal);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(cache.cached('k')).toBeUndefined();
    const bad = cache.principal('bad');
    calls[1](null);
    await bad;
    expect(cache.cached('bad')).toBeUndefined();
    const again = cache.principal('k');
    calls[2](principal);
    await again;
    cache.clear();
    expect(cache.cached('k')).toBeUndefined();
  });

  it('does not cache a verification that was in flight when the keys were cleared', async () => {
    const { verify, calls } = pendingVerify();
    const cache = new KeyCache(verify);
    const inFlight = cache.principal('k');
    cache.clear(); // the key is revoked while the store is being read
    calls[0](principal);
    await inFlight;
    const next = cache.principal('k');
    expect(calls).toHaveLength(2);
    calls[1](null);
    await expect(next).resolves.toBeNull();
  });
});
