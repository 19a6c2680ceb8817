import type { KeyPrincipal } from '../../subgraphs/tenant';

/** Verifies an API key against the store; null for unknown, revoked or malformed keys. */
export type VerifyKey = (apiKey: string) => Promise<KeyPrincipal | null>;

/**
 * Remembers successful verifications for a few seconds so the hot path skips the database.
 * Revocation in this process clears it at once, one made elsewhere (the admin CLI, another
 * replica) as soon as its NOTIFY arrives (key-revocation-listener.ts); `ttlMs` bounds the rest,
 * e.g. while that listener reconnects. Failures are never cached.
 */
export class KeyCache {
  private readonly entries = new Map<string, { principal: KeyPrincipal; expiresAt: number }>();
  // Bumped by clear(): a verification that started before a revocation must not cache its (stale) answer.
  private generation = 0;

  constructor(private readonly verify: VerifyKey, private readonly ttlMs = 10_000, private readonly maxEntries = 10_000) {}

  /** The key's principal if a fresh verification is remembered; undefined when only the store can tell. */
  cached(apiKey: string): KeyPrincipal | undefined {
    const hit = this.entries.get(apiKey);
    return hit && hit.expiresAt > Date.now() ? hit.principal : undefined;
  }

  /** The key's principal, from memory when fresh. */
  async principal(apiKey: string): Promise<KeyPrincipal | null> {
    const hit = this.cached(apiKey);
    if (hit) return hit;
    const now = Date.now();
    const generation = this.generation;
    const principal = await this.verify(apiKey);
    if (generation !== this.generation) return principal;
    if (!principal) {
      this.entries.delete(apiKey);
      return null;
    }
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(apiKey, { principal, expiresAt: now + this.ttlMs });
    return principal;
  }

  /** Forgets everything, e.g. after a key was revoked. */
  clear(): void {
    this.generation += 1;
    this.entries.clear();
  }
}
