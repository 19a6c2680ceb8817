import { randomUUID } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { IdempotencyStore, StoredResponse } from '../../rest-bridge/idempotency';

/** How long a stored response is replayed (payment APIs keep them a day). */
const RETENTION_HOURS = 24;
/** The default of IDEMPOTENCY_LOCK_SECONDS. */
export const DEFAULT_LOCK_SECONDS = 60;

/**
 * Idempotency records in PostgreSQL (`gateway.idempotency_keys`), shared by every gateway replica.
 * A request holding its key longer than `lockSeconds` is presumed dead (its process crashed, its
 * answer was lost) and a retry of the same request may take the key over and run (docs/api.md,
 * Safe retries); the bound outlives every request, whose fetches have their own time limit.
 */
export class PostgresIdempotencyStore implements IdempotencyStore {
  constructor(
    private readonly orm: MikroORM,
    private readonly lockSeconds = DEFAULT_LOCK_SECONDS,
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

  async abandon(tenantId: string, key: string, owner: string): Promise<void> {
    await this.orm.em.getConnection().execute(`delete from gateway.idempotency_keys where tenant_id = ? and key = ? and state = 'in_progress' and owner = ?`, [tenantId, key, owner]);
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
