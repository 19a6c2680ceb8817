import { randomUUID } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { IdempotencyStore, StoredResponse } from '../../rest-bridge/idempotency';
import { dependencyOutage } from '../../schema/dependency-outage';

/** How long a stored response is replayed (payment APIs keep them a day). */
const RETENTION_HOURS = 24;
/** The default of IDEMPOTENCY_LOCK_SECONDS. */
export const DEFAULT_LOCK_SECONDS = 60;
/** How often a release the database refused is tried again while it is down. */
const RELEASE_RETRY_MS = 1_000;
/** Releases waiting for the database at once; past it a key waits out its lock, as it would after a crash. */
const MAX_PENDING_RELEASES = 10_000;

/**
 * Idempotency records in PostgreSQL (`gateway.idempotency_keys`), shared by every gateway replica.
 * A request holding its key longer than `lockSeconds` is presumed dead (its process crashed, its
 * answer was lost) and a retry of the same request may take the key over and run (docs/api.md,
 * Safe retries); the bound outlives every request, whose fetches have their own time limit.
 */
export class PostgresIdempotencyStore implements IdempotencyStore {
  /** Keys whose release waits for the database to answer again, with when their lock ends anyway. */
  private readonly pending = new Map<string, { tenantId: string; key: string; owner: string; until: number }>();
  private retryTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly orm: MikroORM,
    private readonly lockSeconds = DEFAULT_LOCK_SECONDS,
    private readonly log?: Logger,
  ) {}

  async begin(tenantId: string, key: string, fingerprint: string): Promise<{ owner: string } | { inProgressSeconds: number } | 'mismatch' | StoredResponse> {
    const connection = this.orm.em.getConnection();
    const owner = randomUUID();
    // One statement claims a fresh key, or takes over an expired record or a dead request's lock.
    const claimed = await connection.execute<{ key: string }[]>(
      `insert into gateway.idempotency_keys (tenant_id, key, fingerprint, state, locked_until, owner)
       values (?, ?, ?, 'in_progress', now() + make_interval(secs => ?), ?)
       on conflict (tenant_id, key) do update
         set fingerprint = excluded.fingerprint, state = 'in_progress', status = null, body = null,
             created_at = now(), locked_until = excluded.locked_until, owner = excluded.owner
         where gateway.idempotency_keys.created_at < now() - make_interval(hours => ?)
            or (gateway.idempotency_keys.state = 'in_progress' and gateway.idempotency_keys.locked_until < now()
                and gateway.idempotency_keys.fingerprint = excluded.fingerprint)
       returning key`,
      [tenantId, key, fingerprint, this.lockSeconds, owner, RETENTION_HOURS],
    );
    if (claimed.length > 0) return { owner };
    const [existing] = await connection.execute<{ fingerprint: string; state: string; status: number | null; body: string | null; lock_left: number }[]>(
      `select fingerprint, state, status, body, greatest(0, extract(epoch from locked_until - now()))::float8 as lock_left from gateway.idempotency_keys where tenant_id = ? and key = ?`,
      [tenantId, key],
    );
    if (!existing) return this.begin(tenantId, key, fingerprint);
    if (existing.fingerprint !== fingerprint) return 'mismatch';
    if (existing.state === 'in_progress') return { inProgressSeconds: Math.max(1, Math.ceil(existing.lock_left)) };
    return { status: existing.status!, body: existing.body };
  }

  async complete(tenantId: string, key: string, owner: string, response: StoredResponse): Promise<void> {
    await this.orm.em.getConnection().execute(
      `update gateway.idempotency_keys set state = 'completed', status = ?, body = ? where tenant_id = ? and key = ? and owner = ?`,
      [response.status, response.body, tenantId, key, owner],
    );
  }

  /**
   * Releases the key of a request that failed, so its retry runs at once. A database that is down
   * cannot take the release (the request's own 503 is usually that outage): it is then tried
   * again every second in the background until it is taken or the lock has ended by itself, so a
   * retry sent after the database is back finds the key free instead of a 409 for the rest of
   * IDEMPOTENCY_LOCK_SECONDS (docs/api.md, Safe retries). Any other failure throws.
   */
  async abandon(tenantId: string, key: string, owner: string): Promise<void> {
    try {
      await this.release(tenantId, key, owner);
    } catch (error) {
      if (!dependencyOutage(error)) throw error;
      if (this.pending.size < MAX_PENDING_RELEASES) this.pending.set(owner, { tenantId, key, owner, until: Date.now() + this.lockSeconds * 1000 });
      this.scheduleRetry();
    }
  }

  /** Releases still waiting for the database (a gauge for tests and shutdown). */
  get pendingReleases(): number {
    return this.pending.size;
  }

  /** Stops retrying releases (shutdown): the keys left wait out their locks. */
  stop(): void {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.pending.clear();
  }

  private release(tenantId: string, key: string, owner: string): Promise<unknown> {
    return this.orm.em.getConnection().execute(`delete from gateway.idempotency_keys where tenant_id = ? and key = ? and state = 'in_progress' and owner = ?`, [tenantId, key, owner]);
  }

  private scheduleRetry(): void {
    if (this.retryTimer || this.pending.size === 0) return;
    this.retryTimer = setTimeout(() => void this.retryReleases(), RELEASE_RETRY_MS);
    this.retryTimer.unref();
  }

  private async retryReleases(): Promise<void> {
    this.retryTimer = null;
    for (const [owner, { tenantId, key, until }] of this.pending) {
      if (Date.now() >= until) {
        this.pending.delete(owner);
        continue;
      }
      try {
        await this.release(tenantId, key, owner);
        this.pending.delete(owner);
      } catch (error) {
        // Still down: the rest wait for the next round.
        if (dependencyOutage(error)) break;
        this.pending.delete(owner);
        this.log?.error({ err: error }, 'idempotency key release failed; the key waits out its lock');
      }
    }
    this.scheduleRetry();
  }

  /** Deletes records past the retention window; called periodically by the gateway. */
  async prune(): Promise<number> {
    const result = await this.orm.em.getConnection().execute<{ affectedRows?: number }>(
      `delete from gateway.idempotency_keys where created_at < now() - make_interval(hours => ?)`,
      [RETENTION_HOURS],
      'run',
    );
    return result.affectedRows ?? 0;
  }
}
