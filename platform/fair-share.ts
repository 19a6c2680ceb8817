import { RateLimitedError } from '../schema/errors';

/** The limits of a FairShare (docs/decisions.md, Fair shares between tenants). */
export interface FairShareLimits {
  /** Units one key (a tenant) may run at once. */
  perKey: number;
  /** Units the process runs at once, all keys together. */
  total: number;
  /** How long a unit may wait for its turn before it is refused (RATE_LIMITED). */
  maxWaitMs: number;
  /** Units one key may have waiting; one more is refused at once. */
  maxQueuedPerKey: number;
}

/** What happened to a unit, for observers (metrics, tests): in the order it happened. */
export interface FairShareEvent {
  kind: 'queued' | 'admitted' | 'released' | 'refused' | 'dropped';
  key: string;
}

/** One key's units now. */
export interface FairShareCounts {
  running: number;
  waiting: number;
}

interface Waiter {
  admit(): void;
  reject(error: unknown): void;
}

interface KeyState {
  running: number;
  /** Waiting units in arrival order; short (at most maxQueuedPerKey). */
  queue: Waiter[];
  /** The admission ticket of this key's latest unit: the lower, the longer it has gone unserved. */
  lastServed: number;
}

/** Idle keys are forgotten once this many are known, not one by one (a Map entry per request would outlive it: slot-list.ts says why). */
const PRUNE_AT = 1_024;

/**
 * A concurrency limiter with a fair queue across keys, after Stripe's concurrent-request limiter:
 * each key runs at most `perKey` units and the process at most `total`; when a slot frees it goes
 * to the key with waiting work that was served least recently (round-robin among the keys that
 * wait), so one key's burst waits for its own share and never holds a slot another key needs. A
 * unit that waits longer than `maxWaitMs`, or arrives when its key already has `maxQueuedPerKey`
 * waiting, is refused with a RateLimitedError carrying a retry hint. Per process: N processes
 * allow N times the limits. Built once per running subgraph (its `configure`), never shared.
 */
export class FairShare {
  private readonly keys = new Map<string, KeyState>();
  private readonly listeners = new Set<(event: FairShareEvent) => void>();
  private running = 0;
  private waiting = 0;
  private tickets = 0;

  /** `name` labels its metrics (`analytics`, `logo`): one per queue, never per key. */
  constructor(
    readonly name: string,
    readonly limits: FairShareLimits,
  ) {
    for (const [name, value] of Object.entries(limits)) {
      if (!Number.isInteger(value) || value < 1) throw new Error(`FairShare: ${name} must be a whole number of at least 1 (got ${value})`);
    }
  }

  /**
   * Runs `work` once `key` has a slot, and frees the slot however it ends. Refused with
   * RATE_LIMITED when the wait is too long or the key's queue is full; a unit still waiting when
   * `signal` aborts (its request is gone), or arriving with it aborted, is dropped with the
   * signal's reason. A unit already running is left to finish: its statement has its own timeout.
   */
  async run<T>(key: string, work: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    await this.acquire(key, signal);
    try {
      return await work();
    } finally {
      this.release(key);
    }
  }

  /** Units running and waiting: of one key, or of every key together. */
  counts(key?: string): FairShareCounts {
    if (key === undefined) return { running: this.running, waiting: this.waiting };
    const state = this.keys.get(key);
    return { running: state?.running ?? 0, waiting: state?.queue.length ?? 0 };
  }

  /** Calls `listener` on every event until the answered function is called. */
  listen(listener: (event: FairShareEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Seconds a refused caller should wait before trying again: the wait bound, rounded up. */
  get retryAfterSeconds(): number {
    return Math.max(1, Math.ceil(this.limits.maxWaitMs / 1000));
  }

  private acquire(key: string, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) {
      this.emit('dropped', key);
      return Promise.reject(signal.reason);
    }
    const state = this.stateOf(key);
    // Every waiter that could run has been admitted (pump runs on each change), so a key under
    // both caps has no queue of its own and nobody else waits for a slot it could take.
    if (state.running < this.limits.perKey && this.running < this.limits.total) {
      this.admit(key, state);
      return Promise.resolve();
    }
    if (state.queue.length >= this.limits.maxQueuedPerKey) {
      this.emit('refused', key);
      return Promise.reject(this.refusal());
    }
    return new Promise<void>((resolve, reject) => {
      const leave = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        const at = state.queue.indexOf(waiter);
        if (at >= 0) state.queue.splice(at, 1);
        this.waiting--;
      };
      const onAbort = () => {
        leave();
        this.emit('dropped', key);
        reject(signal!.reason);
      };
      const waiter: Waiter = {
        admit: () => {
          leave();
          resolve();
        },
        reject: (error) => {
          leave();
          reject(error);
        },
      };
      const timer = setTimeout(() => {
        this.emit('refused', key);
        waiter.reject(this.refusal());
      }, this.limits.maxWaitMs);
      signal?.addEventListener('abort', onAbort, { once: true });
      state.queue.push(waiter);
      this.waiting++;
      this.emit('queued', key);
    });
  }

  private release(key: string): void {
    const state = this.keys.get(key)!;
    state.running--;
    this.running--;
    this.emit('released', key);
    this.pump();
  }

  /** Hands free slots to waiting units, the least recently served eligible key first. */
  private pump(): void {
    while (this.running < this.limits.total && this.waiting > 0) {
      let next: [string, KeyState] | undefined;
      for (const entry of this.keys) {
        const state = entry[1];
        if (state.queue.length === 0 || state.running >= this.limits.perKey) continue;
        if (!next || state.lastServed < next[1].lastServed) next = entry;
      }
      if (!next) return;
      const [key, state] = next;
      const waiter = state.queue[0];
      this.admit(key, state);
      waiter.admit();
    }
  }

  private admit(key: string, state: KeyState): void {
    state.running++;
    this.running++;
    state.lastServed = ++this.tickets;
    this.emit('admitted', key);
  }

  private stateOf(key: string): KeyState {
    let state = this.keys.get(key);
    if (state) return state;
    if (this.keys.size >= PRUNE_AT) {
      for (const [idle, s] of this.keys) if (s.running === 0 && s.queue.length === 0) this.keys.delete(idle);
    }
    state = { running: 0, queue: [], lastServed: 0 };
    this.keys.set(key, state);
    return state;
  }

  private refusal(): RateLimitedError {
    const seconds = this.retryAfterSeconds;
    return new RateLimitedError(seconds, `Too many expensive requests in progress for this tenant; retry after ${seconds} s`);
  }

  private emit(kind: FairShareEvent['kind'], key: string): void {
    if (this.listeners.size === 0) return;
    for (const listener of this.listeners) listener({ kind, key });
  }
}
