import { AssetCache } from '../../../../gateway/http/asset-cache';
import type { AssetContent } from '../../../../subgraphs/tenant';

const asset = (size: number): AssetContent => ({ contentType: 'image/png', byteSize: size, sha256: 'x'.repeat(64), data: Buffer.alloc(size, 1) });

describe('AssetCache', () => {
  it('holds at most its byte budget, dropping the least recently served first', async () => {
    const loads: string[] = [];
    const cache = new AssetCache(async (id) => (loads.push(id), id === 'missing' ? null : asset(400)), 1000, 2);
    await cache.get('a');
    await cache.get('b');
    await cache.get('a'); // a is now the most recent
    await cache.get('c'); // over 1000 bytes: b leaves
    expect(cache.size).toBeLessThanOrEqual(1000);
    await cache.get('a');
    await cache.get('c');
    await cache.get('b');
    expect(loads).toEqual(['a', 'b', 'c', 'b']);
    // Unknown ids are never remembered.
    expect(await cache.get('missing')).toBeNull();
    expect(await cache.get('missing')).toBeNull();
    expect(loads.filter((id) => id === 'missing')).toHaveLength(2);
  });

  it('never keeps an asset larger than its budget, and keeps no pooled slab alive', async () => {
    const big = asset(2000);
    const cache = new AssetCache(async () => big, 1000, 2);
    expect(await cache.get('big')).toBe(big);
    expect(cache.size).toBe(0);
    // Decoded from text, as the driver decodes bytea: a slice of node's shared pool.
    const small = { ...asset(10), data: Buffer.from('01'.repeat(10), 'hex') };
    expect(small.data.buffer.byteLength).toBeGreaterThan(10);
    const other = new AssetCache(async () => small, 1000, 2);
    await other.get('s');
    const kept = await other.get('s');
    expect(kept?.data.equals(small.data)).toBe(true);
    expect(kept?.data.buffer.byteLength).toBe(10);
  });

  it('runs at most `readsAtOnce` loads at a time, and a waiting miss uses what another just read', async () => {
    let running = 0;
    let most = 0;
    let loads = 0;
    const cache = new AssetCache(
      async () => {
        loads++;
        most = Math.max(most, ++running);
        await new Promise((resolve) => setImmediate(resolve));
        running--;
        return asset(10);
      },
      1_000_000,
      2,
    );
    await Promise.all(['a', 'b', 'c', 'd', 'e', 'a', 'a'].map((id) => cache.get(id)));
    expect(most).toBe(2);
    expect(loads).toBe(5);
  });
});
