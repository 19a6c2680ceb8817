import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { RateLimiterRedis, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { LeasedBudget, leaseSlice } from '../../platform/speed/rate-lease';

/** Counts the store's round trips, which leasing exists to save. */
function counted(store: RateLimiterAbstract): { store: RateLimiterAbstract; calls: () => number } {
  let calls = 0;
  const wrapped = Object.create(store) as RateLimiterAbstract;
  for (const method of ['consume', 'reward', 'get'] as const) {
    const original = store[method].bind(store) as (...args: unknown[]) => Promise<unknown>;
    (wrapped as unknown as Record<string, unknown>)[method] = (...args: unknown[]) => {
      calls += 1;
      return original(...args);
    };
  }
  return { store: wrapped, calls: () => calls };
}

/**
 * Leased budgets over the real shared store (Redis, as replicas share it): two LeasedBudget
 * instances stand for two processes. The window never admits more than its limit, whatever the
 * interleaving; what leasing gives up is bounded (slices unspent at the window's end); and the
 * store is asked about once a slice instead of once a request.
 */
describe('leased rate-limit budgets', () => {
  const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: 1 });
  const store = (limit: number) => new RateLimiterRedis({ storeClient: redis, keyPrefix: `rl:lease-test:${randomUUID()}`, points: limit, duration: 60 });
  afterAll(() => redis.quit());

  it('spends from a held slice without a promise, and only while the slice covers the request', async () => {
    const shared = counted(store(100));
    const budget = new LeasedBudget(shared.store, 5);
    const tenant = randomUUID();
    expect(budget.spendHeld(tenant, 1)).toBeNull(); // nothing leased yet: only the store can answer
    expect((await budget.spend(tenant, 1)).allowed).toBe(true); // leases 5, spends 1
    const calls = shared.calls();
    const held = budget.spendHeld(tenant, 3);
    expect(held).toMatchObject({ allowed: true, remaining: 96 });
    expect(budget.spendHeld(tenant, 2)).toBeNull(); // 1 point left in the slice
    expect(budget.spendHeld(tenant, 1)).toMatchObject({ allowed: true, remaining: 95 });
    expect(shared.calls()).toBe(calls);
  });

  it('never admits more than the limit from two processes, and leaves at most a slice each unspent', async () => {
    const limit = 1_000;
    const slice = leaseSlice(limit, 2);
    expect(slice).toBe(10);
    const shared = counted(store(limit));
    const [a, b] = [new LeasedBudget(shared.store, slice), new LeasedBudget(shared.store, slice)];
    const tenant = randomUUID();
    // Interleaved and concurrent, one and three points at a time (GraphQL charges root fields beyond the first).
    const outcomes: number[] = await Promise.all(Array.from({ length: 900 }, (_, i) => (i % 2 ? a : b).spend(tenant, i % 7 === 0 ? 3 : 1).then((s) => (s.allowed ? (i % 7 === 0 ? 3 : 1) : 0))));
    const admitted = outcomes.reduce((sum, n) => sum + n, 0);
    expect(admitted).toBeLessThanOrEqual(limit);
    expect(admitted).toBeGreaterThanOrEqual(limit - 2 * (slice - 1));
    expect(outcomes.filter((n) => n === 0).length).toBeGreaterThan(0);
    // About one consume per slice (plus a reward and a retry per refused lease near the end), not one per request.
    expect(shared.calls()).toBeLessThan(900 / 4);
  });

  it('takes the last points of a window a slice at a time no longer, then refuses with the reset time', async () => {
    const limit = 25;
    const budget = new LeasedBudget(store(limit), 10);
    const tenant = randomUUID();
    const allowed: number[] = [];
    for (let i = 0; i < 30; i += 1) {
      const spent = await budget.spend(tenant, 1);
      if (spent.allowed) allowed.push(spent.remaining);
      else {
        expect(spent.msBeforeNext).toBeGreaterThan(0);
        expect(spent.msBeforeNext).toBeLessThanOrEqual(60_000);
      }
    }
    // One process alone loses nothing: every point of the window is admitted, and the count goes down to 0.
    expect(allowed).toHaveLength(limit);
    expect(allowed.at(-1)).toBe(0);
    expect([...allowed].sort((x, y) => y - x)).toEqual(allowed);
  });

  it('keeps tenants apart: one tenant spending its window leaves another its own', async () => {
    const budget = new LeasedBudget(store(50), 10);
    const [busy, quiet] = [randomUUID(), randomUUID()];
    for (let i = 0; i < 60; i += 1) await budget.spend(busy, 1);
    expect((await budget.spend(busy, 1)).allowed).toBe(false);
    const spent = await budget.spend(quiet, 1);
    expect(spent).toMatchObject({ allowed: true, remaining: 49 });
  });

  it('asks the store for every request when the limit is small (a slice of 1)', () => {
    expect(leaseSlice(600, 1)).toBe(12);
    expect(leaseSlice(600, 2)).toBe(6);
    expect(leaseSlice(60, 2)).toBe(1);
    expect(leaseSlice(5, 1)).toBe(1);
  });
});
