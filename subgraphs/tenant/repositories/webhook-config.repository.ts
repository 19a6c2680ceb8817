import type { EntityManager } from '@mikro-orm/postgresql';
import type { Db } from 'pg-boss' with { 'resolution-mode': 'import' };
import type { TenantScope } from '../../../platform/tenant-scope';
import { WebhookConfig } from '../entities/webhook-config.entity';

/** An endpoint (a tenant's webhook configuration) as the admission sees it, locked for the transaction. */
export interface EndpointState {
  tenant_id: string;
  enabled: boolean;
  has_url: boolean;
  consecutive_failures: number;
  circuit_open_until: Date | null;
  /** The breaker is open right now: deliveries wait until `circuit_open_until`. */
  open: boolean;
}

/** What one batch's attempts told about an endpoint's health. */
export interface HealthReport {
  tenantId: string;
  /** At least one 2xx: the run of failures ends. */
  succeeded: boolean;
  /** Failed attempts (anything but a 2xx). */
  failures: number;
  /** The receiver answered 410 Gone: it asks never to be called again. */
  gone: boolean;
}

/** The thresholds the health bookkeeping applies (webhooks/settings.ts). */
export interface HealthPolicy {
  breakerFailures: number;
  breakerCooldownSeconds: number;
  disableAfterFailures: number;
  disableAfterHours: number;
}

/**
 * The scope's webhook configuration (at most one row per tenant). The static `...Unscoped`
 * statements are the dispatchers' view of each endpoint (a configuration): which deliveries may
 * take a slot now (its share, its circuit breaker) and what the attempts did to its health. That
 * state lives in the database, not in a process, because any number of dispatcher processes share
 * every endpoint (docs/webhooks.md, Fairness between endpoints). They run on pg-boss's `Db` inside
 * the admission or bookkeeping transaction; each row binds its own tenant id.
 */
export class WebhookConfigRepository {
  constructor(private readonly em: EntityManager, private readonly scope: TenantScope) {}

  /** The configuration, or null before the first save. */
  find(): Promise<WebhookConfig | null> {
    return this.em.findOne(WebhookConfig, { tenantId: this.scope.tenantId });
  }

  /** A new configuration of the scope's tenant, added to the unit of work: the caller's transaction writes it. */
  add(fields: Pick<WebhookConfig, 'enabled' | 'events' | 'secret'>): WebhookConfig {
    return this.em.create(WebhookConfig, { ...fields, tenantId: this.scope.tenantId } as never);
  }


  /** Deliveries of each of `tenantIds` in flight now (a live lease), in any process. */
  static async inFlightUnscoped(tx: Db, tenantIds: string[]): Promise<Map<string, number>> {
    const { rows } = await tx.executeSql(
      `select tenant_id, count(*)::int as n from tenant.webhook_deliveries
        where tenant_id = any($1::uuid[]) and status = 'pending' and locked_until is not null and locked_until > clock_timestamp()
        group by tenant_id`,
      [tenantIds],
    );
    return new Map((rows as { tenant_id: string; n: number }[]).map((r) => [r.tenant_id, r.n]));
  }

  /**
   * Locks the endpoints of `tenantIds` for the admission transaction (in one order, so two
   * admissions never deadlock): admissions to one endpoint run one after another, so its share
   * is counted exactly.
   */
  static async lockUnscoped(tx: Db, tenantIds: string[]): Promise<Map<string, EndpointState>> {
    const { rows } = await tx.executeSql(
      `select tenant_id, enabled, url is not null as has_url, consecutive_failures, circuit_open_until,
              coalesce(circuit_open_until > clock_timestamp(), false) as open
         from tenant.webhook_configs where tenant_id = any($1::uuid[]) order by tenant_id for update`,
      [tenantIds],
    );
    return new Map((rows as EndpointState[]).map((r) => [r.tenant_id, r]));
  }

  /** Half-open breakers: while each endpoint's one probe is in flight (up to `leaseSeconds`), the others keep waiting. */
  static async markProbingUnscoped(tx: Db, tenantIds: string[], leaseSeconds: number): Promise<void> {
    if (tenantIds.length === 0) return;
    await tx.executeSql(`update tenant.webhook_configs set circuit_open_until = clock_timestamp() + make_interval(secs => $2) where tenant_id = any($1::uuid[])`, [tenantIds, leaseSeconds]);
  }

  /**
   * Applies a batch's reports in its bookkeeping transaction: a success closes the breaker and
   * ends the run of failures; a failure lengthens the run, and opens the breaker for the cool-down
   * once the run reaches `breakerFailures`. An endpoint whose run is both `disableAfterFailures`
   * long and `disableAfterHours` old, or that answered 410 Gone, is disabled with the reason the
   * tenant will see. Returns the endpoints disabled now, with that reason.
   */
  static async recordHealthUnscoped(tx: Db, reports: HealthReport[], policy: HealthPolicy): Promise<Map<string, string>> {
    if (reports.length === 0) return new Map();
    const sorted = [...reports].sort((a, b) => (a.tenantId < b.tenantId ? -1 : 1));
    await tx.executeSql(
      `update tenant.webhook_configs c set
          consecutive_failures = case when s.ok then 0 else c.consecutive_failures + s.failures end,
          failing_since = case when s.ok then null when s.failures > 0 then coalesce(c.failing_since, now()) else c.failing_since end,
          circuit_open_until = case
            when s.ok then null
            when s.failures > 0 and c.consecutive_failures + s.failures >= $4 then clock_timestamp() + make_interval(secs => $5)
            else c.circuit_open_until end
         from unnest($1::uuid[], $2::bool[], $3::int[]) as s(tenant_id, ok, failures)
        where c.tenant_id = s.tenant_id
          -- A healthy endpoint's success changes nothing: no row version, no lock held until commit.
          and (not s.ok or c.consecutive_failures <> 0 or c.failing_since is not null or c.circuit_open_until is not null)`,
      [sorted.map((r) => r.tenantId), sorted.map((r) => r.succeeded), sorted.map((r) => r.failures), policy.breakerFailures, policy.breakerCooldownSeconds],
    );
    // Only a failure or a 410 can disable an endpoint: a batch of successes skips the statement.
    if (!reports.some((r) => r.failures > 0 || r.gone)) return new Map();
    const { rows } = await tx.executeSql(
      `update tenant.webhook_configs c set enabled = false, disabled_at = now(), updated_at = now(),
          disabled_reason = case when c.tenant_id = any($2::uuid[]) then 'the receiver answered 410 Gone'
            else format('every delivery attempt failed: %s in a row since %s', c.consecutive_failures,
                        to_char(c.failing_since at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')) end
        where c.tenant_id = any($1::uuid[]) and c.enabled
          and (c.tenant_id = any($2::uuid[]) or (c.consecutive_failures >= $3 and c.failing_since <= now() - make_interval(hours => $4)))
        returning c.tenant_id, c.disabled_reason`,
      [sorted.map((r) => r.tenantId), sorted.filter((r) => r.gone).map((r) => r.tenantId), policy.disableAfterFailures, policy.disableAfterHours],
    );
    return new Map((rows as { tenant_id: string; disabled_reason: string }[]).map((r) => [r.tenant_id, r.disabled_reason]));
  }
}
