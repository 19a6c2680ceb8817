import type { Response } from 'express';
import type { Redis } from 'ioredis';
import pino, { type Logger } from 'pino';
import { RateLimiterCluster, RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Config } from '../config';
import { rateLimitRefusals } from '../metrics/instruments';
import { LeasedBudget, leaseSlice, type Spend } from '../../platform/speed/rate-lease';
import { openRedis } from '../../platform/redis';

/** A logger for tests that build limits without one. */
const silentLog = pino({ level: 'silent' });

/** Outcome of counting one request against a budget. */
export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window resets. */
  resetSeconds: number;
  /** Which budget answered, for the IETF `RateLimit` headers' policy name. */
  policy: 'tenant' | 'anonymous' | 'public';
  windowSeconds: number;
}

/** Failed sign-ins allowed per 15 minutes: per account (a tenant's e-mail), so guessing one person's password is slow; per address, so guessing many people's is too. */
export const SIGN_IN_FAILURES = { account: 5, address: 20, windowSeconds: 900 } as const;

/**
 * Fixed-window budgets (docs/decisions.md, Tenancy): one per tenant, and one per client address for
 * requests that are not (yet) a tenant's: failed authentications, unknown routes, public pages.
 * The store is memory in one process, the primary's memory for the workers of WEB_CONCURRENCY > 1
 * (over the cluster's IPC), and Redis when REDIS_URL is set so that replicas share counts. While
 * Redis does not answer (a command past REDIS_TIMEOUT_MS, or no connection), each process counts
 * in its own memory instead (rate-limiter-flexible's `insuranceLimiter`), a budget's limit shared
 * among this replica's WEB_CONCURRENCY workers (RATE_LIMIT_FALLBACK_PER_WINDOW for a tenant's);
 * requests go on and the shared counts resume once Redis answers (docs/operations.md, Redis).
 */
export class RateLimits {
  private readonly tenant: RateLimiterAbstract;
  private readonly anonymous: RateLimiterAbstract;
  /** Public documents per client address: a page load fetches up to ~20 files, so a budget apart from failed logins. */
  private readonly publicDocuments: RateLimiterAbstract;
  private readonly publicPoints: number;
  private readonly redis: Redis | null;
  /** The tenant budget spent from leased slices; null when every request asks the store (one process, or slices of 1). */
  private readonly tenantLease: LeasedBudget | null;
  /** Failed sign-ins per account (tenant and e-mail) and per client address (docs/access.md, Signing in). */
  private readonly signInAccount: RateLimiterAbstract;
  private readonly signInAddress: RateLimiterAbstract;

  constructor(
    private readonly config: Config['rateLimit'],
    redisUrl: string | null,
    options: { clustered: boolean; workers?: number; publicPoints?: number | null; redisTimeoutMs?: number; log?: Logger } = { clustered: false },
  ) {
    this.publicPoints = options.publicPoints ?? Math.min(10_000_000, config.authFailurePoints * 10);
    const publicOptions = { keyPrefix: 'rl:public', points: this.publicPoints, duration: config.windowSeconds };
    const tenantOptions = { keyPrefix: 'rl:tenant', points: config.points, duration: config.windowSeconds };
    const anonymousOptions = { keyPrefix: 'rl:anon', points: config.authFailurePoints, duration: config.windowSeconds };
    this.redis = redisUrl ? openRedis(redisUrl, options.redisTimeoutMs ?? 500, options.log ?? silentLog) : null;
    const workers = Math.max(1, options.workers ?? 1);
    const make = (limiterOptions: { keyPrefix: string; points: number; duration: number; blockDuration?: number }, fallbackPoints?: number | null): RateLimiterAbstract => {
      if (this.redis) {
        // While Redis does not answer, this process counts alone: its share of the limit, so one replica's workers together stay within it.
        const insurance = new RateLimiterMemory({ ...limiterOptions, points: fallbackPoints ?? Math.max(1, Math.ceil(limiterOptions.points / workers)) });
        // rejectIfRedisNotReady: a client that is not `ready` (its connection dropped after a timeout) sends the request to the insurance at once.
        return new RateLimiterRedis({ ...limiterOptions, storeClient: this.redis, rejectIfRedisNotReady: true, insuranceLimiter: insurance });
      }
      return options.clustered ? new RateLimiterCluster({ ...limiterOptions, timeoutMs: 5_000 }) : new RateLimiterMemory(limiterOptions);
    };
    this.tenant = make(tenantOptions, config.fallbackPoints);
    this.anonymous = make(anonymousOptions);
    this.publicDocuments = make(publicOptions);
    this.signInAccount = make({ keyPrefix: 'rl:signin:account', points: SIGN_IN_FAILURES.account, duration: SIGN_IN_FAILURES.windowSeconds });
    this.signInAddress = make({ keyPrefix: 'rl:signin:address', points: SIGN_IN_FAILURES.address, duration: SIGN_IN_FAILURES.windowSeconds });
    // A store in this process's memory is exact and costs nothing to ask; a shared one costs a round trip per request.
    // Failed authentications keep exact counts: they are few, and an attacker's budget must not grow by a slice.
    const slice = config.leasePoints ?? leaseSlice(config.points, options.workers ?? 1);
    this.tenantLease = (redisUrl || options.clustered) && slice > 1 ? new LeasedBudget(this.tenant, slice) : null;
  }

  /**
   * Counts a request of an authenticated tenant: one unit, or `points` (a GraphQL request's root
   * fields beyond its first). Answers at once, not in a promise, when this process's leased slice
   * covers it: most requests of a busy tenant, which then cost the edge no turn of the event loop.
   */
  consumeTenant(tenantId: string, points = 1): RateDecision | Promise<RateDecision> {
    if (!this.tenantLease) return this.consume(this.tenant, tenantId, 'tenant', this.config.points, points);
    const held = this.tenantLease.spendHeld(tenantId, points);
    return held ? this.decideSpend(held) : this.tenantLease.spend(tenantId, points).then((spent) => this.decideSpend(spent));
  }

  /** Counts a request that is nobody's yet, by client address. */
  consumeAnonymous(address: string): Promise<RateDecision> {
    return this.consume(this.anonymous, address, 'anonymous', this.config.authFailurePoints);
  }

  /** Counts a request for a public document (`/openapi.json`, `/docs`, the IDE's and console's files) by client address. */
  consumePublic(address: string): Promise<RateDecision> {
    return this.consume(this.publicDocuments, address, 'public', this.publicPoints);
  }

  /** Seconds until a sign-in for this account from this address may be tried again; 0 when it may now. */
  async signInWait(account: string, address: string): Promise<number> {
    const [byAccount, byAddress] = await Promise.all([this.signInAccount.get(account), this.signInAddress.get(address)]);
    const wait = (res: RateLimiterRes | null, limit: number) => (res && res.consumedPoints >= limit ? Math.ceil(res.msBeforeNext / 1000) : 0);
    return Math.max(wait(byAccount, SIGN_IN_FAILURES.account), wait(byAddress, SIGN_IN_FAILURES.address));
  }

  /** Counts a failed sign-in against its account and its address. */
  async signInFailed(account: string, address: string): Promise<void> {
    const count = (limiter: RateLimiterAbstract, key: string) => limiter.consume(key).catch((rejection: unknown) => {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
    });
    await Promise.all([count(this.signInAccount, account), count(this.signInAddress, address)]);
  }

  async close(): Promise<void> {
    await this.redis?.quit().catch(() => undefined);
  }

  private async consume(limiter: RateLimiterAbstract, key: string, policy: RateDecision['policy'], limit: number, points = 1): Promise<RateDecision> {
    try {
      const res = await limiter.consume(key, points);
      return this.decide(policy, limit, true, Math.max(0, res.remainingPoints), res.msBeforeNext);
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      return this.decide(policy, limit, false, Math.max(0, rejection.remainingPoints), rejection.msBeforeNext);
    }
  }

  private decideSpend(spent: Spend): RateDecision {
    return this.decide('tenant', this.config.points, spent.allowed, Math.min(this.config.points, spent.remaining), spent.msBeforeNext);
  }

  /** One decision, whichever way the budget was counted; a refusal is counted in the metrics here. */
  private decide(policy: RateDecision['policy'], limit: number, allowed: boolean, remaining: number, msBeforeNext: number): RateDecision {
    if (!allowed) rateLimitRefusals.inc({ policy });
    return { allowed, limit, remaining, resetSeconds: Math.max(1, Math.ceil(msBeforeNext / 1000)), policy, windowSeconds: this.config.windowSeconds };
  }
}

/**
 * Writes the budget on a response: GitHub's `X-RateLimit-*` (reset as Unix epoch seconds) and the
 * IETF draft's `RateLimit-Policy` / `RateLimit` structured fields beside them.
 */
export function setRateLimitHeaders(res: Response, decision: RateDecision): void {
  const resetEpoch = Math.ceil(Date.now() / 1000) + decision.resetSeconds;
  res.setHeader('X-RateLimit-Limit', String(decision.limit));
  res.setHeader('X-RateLimit-Remaining', String(decision.remaining));
  res.setHeader('X-RateLimit-Reset', String(resetEpoch));
  res.setHeader('RateLimit-Policy', `"${decision.policy}";q=${decision.limit};w=${decision.windowSeconds}`);
  res.setHeader('RateLimit', `"${decision.policy}";r=${decision.remaining};t=${decision.resetSeconds}`);
  if (!decision.allowed) res.setHeader('Retry-After', String(decision.resetSeconds));
}
