import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';

/** What spending from a budget answers: whether it was allowed, what is left, and when the window resets. */
export interface Spend {
  allowed: boolean;
  /** Points left in the window as this process knows it: the store's count at the last lease, plus this process's unspent slice. */
  remaining: number;
  msBeforeNext: number;
}

/** A slice of one key's window held by this process. */
interface Lease {
  points: number;
  storeRemaining: number;
  expiresAt: number;
}

/** Upper bound of keys holding a lease at once; past it the oldest are dropped (their unspent points are lost, never overspent). */
const MAX_LEASES = 100_000;

/**
 * Leased budgets (docs/decisions.md, Tenancy): with a shared store (Redis, or the cluster primary
 * over IPC) every request would cost a round trip to it. Instead this process takes a slice of the
 * key's window from the store, `slice` points at once, and spends it locally; the store is asked
 * again when the slice is spent. The store's count is atomic, so the window never admits more
 * than its limit: a lease the store refuses is given back (`reward`) and only what the request
 * needs is asked for. What leasing costs is the other way: points leased and not spent before the
 * window ends are lost, at most `slice - 1` per process and key. A lease ends with its window.
 */
export class LeasedBudget {
  private readonly leases = new Map<string, Lease>();
  /** One lease request per key at a time in this process: a burst waits for it instead of each asking the store for a slice. */
  private readonly leasing = new Map<string, Promise<unknown>>();

  constructor(
    private readonly store: RateLimiterAbstract,
    private readonly slice: number,
  ) {}

  /** Spends `points` from this process's slice when it holds enough (most requests); null when only the store can answer (`spend`). */
  spendHeld(key: string, points: number): Spend | null {
    const now = Date.now();
    const lease = this.valid(key, now);
    if (!lease || lease.points < points) return null;
    lease.points -= points;
    return { allowed: true, remaining: lease.storeRemaining + lease.points, msBeforeNext: lease.expiresAt - now };
  }

  /** Spends `points` of `key`'s window: from this process's slice when it holds enough, else from a new lease. */
  async spend(key: string, points: number): Promise<Spend> {
    for (;;) {
      const held = this.spendHeld(key, points);
      if (held) return held;
      const now = Date.now();
      const lease = this.valid(key, now);
      // The store said it has less than this request needs, and the window has not ended: refuse without asking again.
      if (lease && lease.points + lease.storeRemaining < points) return { allowed: false, remaining: lease.points + lease.storeRemaining, msBeforeNext: lease.expiresAt - now };
      const pending = this.leasing.get(key);
      if (pending) {
        await pending;
        continue;
      }
      const leased = this.lease(key, points, lease);
      this.leasing.set(key, leased);
      try {
        return await leased;
      } finally {
        this.leasing.delete(key);
      }
    }
  }

  /** Asks the store for a slice (or, near the window's end, for what is left or what this request needs) and spends `points` of it. */
  private async lease(key: string, points: number, lease: Lease | undefined): Promise<Spend> {
    // Claim what is left of the slice before waiting on the store, so no concurrent request spends it too.
    const unspent = lease ? lease.points : 0;
    if (lease) lease.points = 0;
    const need = points - unspent;
    const ask = Math.max(need, Math.min(this.slice, lease ? lease.storeRemaining : Infinity));
    const granted = (await this.take(key, ask)) ?? (ask > need ? await this.take(key, need) : null);
    if (!granted) {
      const refused = await this.store.get(key);
      const msBeforeNext = Math.max(0, refused?.msBeforeNext ?? 0);
      this.remember(key, { points: unspent, storeRemaining: Math.max(0, refused?.remainingPoints ?? 0), expiresAt: Date.now() + msBeforeNext });
      return { allowed: false, remaining: unspent, msBeforeNext };
    }
    const [taken, res] = granted;
    const held: Lease = { points: unspent + taken - points, storeRemaining: Math.max(0, res.remainingPoints), expiresAt: Date.now() + res.msBeforeNext };
    this.remember(key, held);
    return { allowed: true, remaining: held.storeRemaining + held.points, msBeforeNext: res.msBeforeNext };
  }

  /** The key's lease while its window lasts. */
  private valid(key: string, now: number): Lease | undefined {
    const lease = this.leases.get(key);
    return lease && lease.expiresAt > now ? lease : undefined;
  }

  /** Takes `points` from the store, or gives back what a refusal counted and answers null. */
  private async take(key: string, points: number): Promise<[number, RateLimiterRes] | null> {
    try {
      return [points, await this.store.consume(key, points)];
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      // rate-limiter-flexible counts a refused consume; without this a refused slice would cost the window its last points.
      await this.store.reward(key, points);
      return null;
    }
  }

  private remember(key: string, lease: Lease): void {
    this.leases.delete(key);
    if (this.leases.size >= MAX_LEASES) this.leases.delete(this.leases.keys().next().value!);
    this.leases.set(key, lease);
  }
}

/**
 * Points per lease: 2% of the limit shared among the processes counting against one store, so
 * what can go unspent at a window's end stays under 2% of the limit; 1 (no leasing, every request
 * asks the store) for small limits.
 */
export function leaseSlice(limit: number, processes: number): number {
  return Math.max(1, Math.floor((limit * 0.02) / Math.max(1, processes)));
}
