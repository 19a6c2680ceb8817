import { Sema } from 'async-sema';
import type { AssetContent } from '../../subgraphs/tenant';

/** Reads an asset from the store; null when there is none. */
export type LoadAsset = (id: string) => Promise<AssetContent | null>;

/**
 * The public assets recently served, kept in memory up to `maxBytes` of content in all, the least
 * recently served leaving first; at most `readsAtOnce` database reads run at a time, later misses
 * waiting their turn. Memory is bounded by both: the cache, plus a few reads of at most the
 * upload cap each (stored logos are never larger; docs/decisions.md, Logos are bounded). Assets
 * never change under their id, so an entry is never stale; unknown ids are not remembered.
 */
export class AssetCache {
  // A Map iterates in insertion order: re-inserting on every hit makes its first key the least recently used.
  private readonly entries = new Map<string, AssetContent>();
  private bytes = 0;
  private readonly reads: Sema;

  constructor(private readonly load: LoadAsset, private readonly maxBytes: number, readsAtOnce: number) {
    this.reads = new Sema(readsAtOnce);
  }

  /** The asset, from memory when it was served lately, else from the store (then remembered). */
  async get(id: string): Promise<AssetContent | null> {
    const hit = this.touch(id);
    if (hit) return hit;
    await this.reads.acquire();
    try {
      // Another request may have read it while this one waited for a slot.
      const fresh = this.touch(id) ?? (await this.load(id));
      if (fresh) this.remember(id, fresh);
      return fresh;
    } finally {
      this.reads.release();
    }
  }

  /** Bytes of content held now (for tests and metrics). */
  get size(): number {
    return this.bytes;
  }

  private touch(id: string): AssetContent | undefined {
    const hit = this.entries.get(id);
    if (hit) {
      this.entries.delete(id);
      this.entries.set(id, hit);
    }
    return hit;
  }

  private remember(id: string, asset: AssetContent): void {
    if (this.entries.has(id) || asset.data.length > this.maxBytes) return;
    // A buffer of its own: a small one decoded by the driver may be a slice of a larger pooled slab, which it would keep alive.
    const data = asset.data.byteLength === asset.data.buffer.byteLength ? asset.data : ownCopy(asset.data);
    this.entries.set(id, { ...asset, data });
    this.bytes += data.length;
    for (const [oldest, entry] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.bytes -= entry.data.length;
    }
  }
}

/** A copy of `bytes` over an ArrayBuffer of exactly its size (Buffer.from would copy into the shared pool again). */
function ownCopy(bytes: Buffer): Buffer {
  const copy = new Uint8Array(bytes.length);
  copy.set(bytes);
  return Buffer.from(copy.buffer, 0, copy.length);
}
