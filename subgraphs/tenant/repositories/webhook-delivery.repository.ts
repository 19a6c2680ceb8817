import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Pool } from 'pg';
import type { Db } from 'pg-boss' with { 'resolution-mode': 'import' };
import { enqueue } from '../../../platform/jobs/job-queue';
import type { WebhookEventJob } from '../../../platform/jobs/webhook-event';
import { storedId } from '../../../platform/ids';
import type { TenantScope } from '../../../platform/tenant-scope';
import type { ListSlice } from '../../common/connection';
import { readSlice, sqlCondition, sqlOrder } from '../../common/keyset';
import type { ListWindow, SortKey } from '../../common/list-window';
import { deliveryJob, WEBHOOK_DELIVERY_QUEUE } from '../webhooks/queues';
import type { AdoptedDelivery, AttemptOutcome, AttemptRecord, ClaimedDelivery, Deferral, DeliveryRecord, DeliverySettlement, DueDelivery, WebhookQueueStats } from './webhook-delivery.rows';

export type { AdoptedDelivery, AttemptOutcome, AttemptRecord, ClaimedDelivery, Deferral, DeliveryRecord, DeliverySettlement, DueDelivery, WebhookQueueStats };

const DELIVERY_COLUMNS = `id, event_type as "eventType", payload, status, attempt_count as "attemptCount",
  case when status = 'pending' then next_attempt_at end as "nextAttemptAt", last_status as "lastStatus",
  last_error as "lastError", delivered_at as "deliveredAt", created_at as "createdAt"`;

/** created_at to the microsecond (now() fills it), as ISO 8601 text: a cursor holding only milliseconds would skip rows. */
const CREATED_AT_TEXT = `to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/** A delivery as the list reads it: with its creation time to the microsecond, for its cursor. */
export type ListedDelivery = DeliveryRecord & { createdAtKey: string };

/** The order of the delivery log: newest first, then id. */
export const DELIVERY_KEYS: SortKey<ListedDelivery>[] = [
  { field: 'created_at', direction: 'desc', kind: 'instant', value: (row) => row.createdAtKey },
  { field: 'id', direction: 'desc', kind: 'uuid', value: (row) => row.id },
];

/** MikroORM's driver returns timestamptz as text; records carry Dates. */
const toDate = (value: unknown): Date | null => (value === null || value === undefined ? null : new Date(value as string));
const delivery = (row: DeliveryRecord): DeliveryRecord => ({
  ...row,
  nextAttemptAt: toDate(row.nextAttemptAt),
  deliveredAt: toDate(row.deliveredAt),
  createdAt: toDate(row.createdAt)!,
});

/**
 * The webhook delivery log (`tenant.webhook_deliveries`, written by the delivery jobs). Every
 * statement binds the scope's tenant id: the log is shared by all tenants. The writes queue the delivery's
 * next job with it, so they must run in a transaction.
 */
export class WebhookDeliveryRepository {
  constructor(private readonly em: EntityManager, private readonly scope: TenantScope) {}

  /** A window of the tenant's deliveries, newest first (`DELIVERY_KEYS`), and the total. */
  page(filter: { eventType?: string | null; status?: string | null }, window: ListWindow): Promise<ListSlice<ListedDelivery>> {
    const where = ['tenant_id = ?'];
    const params: unknown[] = [this.scope.tenantId];
    if (filter.eventType) (where.push('event_type = ?'), params.push(filter.eventType));
    if (filter.status) (where.push('status = ?'), params.push(filter.status));
    const connection = this.em.getConnection();
    return readSlice(
      window,
      DELIVERY_KEYS,
      async (slice) => {
        const sliceParams = [...params];
        const keyset = slice.conditions.map((term) => sqlCondition(term, sliceParams));
        const rows = await connection.execute<ListedDelivery[]>(
          `select ${DELIVERY_COLUMNS}, ${CREATED_AT_TEXT} as "createdAtKey" from tenant.webhook_deliveries where ${[...where, ...keyset].join(' and ')} order by ${sqlOrder(DELIVERY_KEYS as SortKey<never>[], slice.reverse)} limit ? offset ?`,
          [...sliceParams, slice.limit, slice.offset],
        );
        return rows.map((row) => ({ ...delivery(row), createdAtKey: row.createdAtKey }));
      },
      async () => Number((await connection.execute<{ n: string }[]>(`select count(*) as n from tenant.webhook_deliveries where ${where.join(' and ')}`, params))[0].n),
    );
  }

  /** One of the tenant's deliveries, or null (another tenant's and ids of any other shape read as absent). */
  async find(id: string): Promise<DeliveryRecord | null> {
    const key = storedId(id);
    if (!key) return null;
    const row = await this.em.getConnection().execute<DeliveryRecord>(`select ${DELIVERY_COLUMNS} from tenant.webhook_deliveries where tenant_id = ? and id = ?`, [this.scope.tenantId, key], 'get');
    return row ? delivery(row) : null;
  }

  /** The attempts of several deliveries, oldest first, in one statement. */
  async attempts(deliveryIds: string[]): Promise<AttemptRecord[]> {
    if (deliveryIds.length === 0) return [];
    const rows = await this.em.getConnection().execute<AttemptRecord[]>(
      `select delivery_id as "deliveryId", attempt_number as "attemptNumber", attempted_at as "attemptedAt", status_code as "statusCode", duration_ms as "durationMs", error
         from tenant.webhook_attempts where tenant_id = ? and delivery_id = any(?::uuid[]) order by attempted_at, attempt_number`,
      [this.scope.tenantId, `{${deliveryIds.join(',')}}`],
    );
    return rows.map((r) => ({ ...r, attemptedAt: toDate(r.attemptedAt)! }));
  }

  /**
   * Queues a delivery again from its first attempt. 'busy' while a dispatcher is sending it (a
   * requeue then would send it twice at once); 'missing' when it is not the tenant's.
   */
  async requeue(id: string): Promise<'queued' | 'busy' | 'missing'> {
    const key = storedId(id);
    if (!key) return 'missing';
    // A new job: the one still queued for a retry (if any) is no longer the delivery's and does nothing.
    const jobId = randomUUID();
    const rows = await this.em.getConnection().execute<{ id: string }[]>(
      `update tenant.webhook_deliveries set status = 'pending', attempt_count = 0, next_attempt_at = now(), locked_until = null, job_id = ?, updated_at = now()
        where tenant_id = ? and id = ? and (locked_until is null or locked_until < now()) returning id`,
      [jobId, this.scope.tenantId, key],
      'all',
      this.em.getTransactionContext(),
    );
    if (rows.length > 0) {
      await enqueue(this.em, WEBHOOK_DELIVERY_QUEUE, [deliveryJob(jobId, key, this.scope.tenantId)]);
      return 'queued';
    }
    return (await this.find(key)) ? 'busy' : 'missing';
  }

  /** Queues a `webhook.test` delivery straight into the log: it reports no change, so it needs no outbox. */
  async insertTest(data: Record<string, unknown>): Promise<string> {
    const id = randomUUID();
    const jobId = randomUUID();
    // `livemode` is the tenant's (false for a test twin), as every event's payload carries it (docs/webhooks.md).
    await this.em.getConnection().execute(
      `insert into tenant.webhook_deliveries (id, tenant_id, event_type, payload, status, next_attempt_at, job_id)
       select ?, t.id, 'webhook.test', json_build_object('type', 'webhook.test', 'timestamp', ?::text, 'livemode', t.live_tenant_id is null, 'data', ?::json)::text, 'pending', now(), ?
         from tenant.tenants t where t.id = ?`,
      [id, new Date().toISOString(), JSON.stringify(data), jobId, this.scope.tenantId],
      'run',
      this.em.getTransactionContext(),
    );
    await enqueue(this.em, WEBHOOK_DELIVERY_QUEUE, [deliveryJob(jobId, id, this.scope.tenantId)]);
    return id;
  }

  // The job workers' statements below run on pg-boss's `Db` (in the worker's transaction where
  // one is given), not on an entity manager: a batch holds deliveries of several tenants, so each
  // row carries and binds its own tenant id.

  /**
   * Claims, with a lease (`locked_until`), the pending deliveries whose current job is one of
   * `jobIds` and that nobody else holds, counting the attempt; with each, its tenant's endpoint.
   */
  static async claimUnscoped(db: Db, jobIds: string[], leaseSeconds: number): Promise<ClaimedDelivery[]> {
    const { rows } = await db.executeSql(
      `with due as (
         select id from tenant.webhook_deliveries
          where job_id = any($1::uuid[]) and status = 'pending' and (locked_until is null or locked_until < now())
          for update skip locked)
       update tenant.webhook_deliveries d
          set locked_until = now() + make_interval(secs => $2), attempt_count = d.attempt_count + 1, updated_at = now()
         from due where d.id = due.id
       returning d.id, d.job_id, d.tenant_id, d.event_type, d.payload, d.attempt_count, d.created_at,
         (select url from tenant.webhook_configs c where c.tenant_id = d.tenant_id) as url,
         (select secret from tenant.webhook_configs c where c.tenant_id = d.tenant_id) as secret,
         (select enabled from tenant.webhook_configs c where c.tenant_id = d.tenant_id) as enabled,
         (select disabled_reason from tenant.webhook_configs c where c.tenant_id = d.tenant_id) as disabled_reason`,
      [jobIds, leaseSeconds],
    );
    return rows as ClaimedDelivery[];
  }

  /** Of `jobIds`, the ones still current on a pending delivery (after a claim: another worker holds them). */
  static async pendingJobsUnscoped(db: Db, jobIds: string[]): Promise<string[]> {
    const { rows } = await db.executeSql(`select job_id from tenant.webhook_deliveries where job_id = any($1::uuid[]) and status = 'pending'`, [jobIds]);
    return (rows as { job_id: string }[]).map((r) => r.job_id);
  }

  /** Records one attempt of each claimed delivery, in one statement (`tx`: the batch's bookkeeping transaction). */
  static async recordAttemptsUnscoped(tx: Db, deliveries: ClaimedDelivery[], outcomes: AttemptOutcome[]): Promise<void> {
    await tx.executeSql(
      `insert into tenant.webhook_attempts (delivery_id, tenant_id, attempt_number, status_code, duration_ms, error)
       select * from unnest($1::uuid[], $2::uuid[], $3::int[], $4::int[], $5::int[], $6::text[])`,
      [deliveries.map((r) => r.id), deliveries.map((r) => r.tenant_id), deliveries.map((r) => r.attempt_count), outcomes.map((o) => o.status), outcomes.map((o) => o.durationMs), outcomes.map((o) => o.error)],
    );
  }

  /**
   * Writes each claimed delivery's next state and releases its lease, only while the claim is
   * still the batch's (a redelivery in between wins). Returns the ids it wrote.
   */
  static async settleUnscoped(tx: Db, deliveries: ClaimedDelivery[], outcomes: AttemptOutcome[], states: DeliverySettlement[]): Promise<Set<string>> {
    const { rows } = await tx.executeSql(
      `update tenant.webhook_deliveries d
          set status = s.status,
              delivered_at = case when s.status = 'delivered' then now() end,
              next_attempt_at = coalesce(s.next, d.next_attempt_at),
              job_id = s.next_job,
              locked_until = null, last_status = s.last_status, last_error = s.error, updated_at = now()
         from unnest($1::uuid[], $2::text[], $3::timestamptz[], $4::uuid[], $5::int[], $6::text[], $7::uuid[]) as s(id, status, next, next_job, last_status, error, claimed_job)
        where d.id = s.id and d.job_id = s.claimed_job and d.locked_until is not null
        returning d.id`,
      [deliveries.map((r) => r.id), states.map((s) => s.status), states.map((s) => s.next), states.map((s) => s.nextJob), outcomes.map((o) => o.status), states.map((s) => s.error), deliveries.map((r) => r.job_id)],
    );
    return new Set((rows as { id: string }[]).map((r) => r.id));
  }

  /**
   * Inserts a pending delivery for each event its tenant subscribed to (enabled endpoint, type in
   * its list), carrying the exact payload text every attempt will sign and the id of its first
   * job. An endpoint the platform disabled (a run of failures, 410) still logs its events, as
   * failed deliveries with the reason and no job: the tenant sees what it missed and can redeliver
   * each after re-enabling. The rest are dropped, and an event seen twice is inserted once.
   * Returns the pending deliveries it inserted.
   */
  static async insertFromEventsUnscoped(tx: Db, events: WebhookEventJob[]): Promise<{ id: string; job_id: string; tenant_id: string }[]> {
    const { rows } = await tx.executeSql(
      `insert into tenant.webhook_deliveries (id, tenant_id, event_type, payload, status, next_attempt_at, created_at, job_id, last_error)
       select e.id, e."tenantId", e.type,
              json_build_object('type', e.type, 'timestamp', e."occurredAt", 'livemode', t.live_tenant_id is null, 'data', e.data)::text,
              case when c.enabled then 'pending' else 'failed' end, now(), now(),
              case when c.enabled then gen_random_uuid() end,
              case when not c.enabled then 'endpoint disabled: ' || c.disabled_reason end
         from jsonb_to_recordset($1::jsonb) as e(id uuid, "tenantId" uuid, type text, data jsonb, "occurredAt" text)
         join tenant.webhook_configs c on c.tenant_id = e."tenantId"
         join tenant.tenants t on t.id = e."tenantId"
        where (c.enabled or c.disabled_at is not null) and c.url is not null and e.type = any(c.events)
       on conflict (id) do nothing
       returning id, job_id, tenant_id, status`,
      [JSON.stringify(events)],
    );
    return (rows as { id: string; job_id: string; tenant_id: string; status: string }[]).filter((r) => r.status === 'pending').map(({ id, job_id, tenant_id }) => ({ id, job_id, tenant_id }));
  }

  /**
   * Of `jobIds`, the deliveries they are still current on, pending and held by nobody, oldest
   * first: what the endpoint policy hands slots to. In the admission transaction `tx`.
   */
  static async dueUnscoped(tx: Db, jobIds: string[]): Promise<DueDelivery[]> {
    const { rows } = await tx.executeSql(
      `select id, job_id, tenant_id from tenant.webhook_deliveries
        where job_id = any($1::uuid[]) and status = 'pending' and (locked_until is null or locked_until < now())
        order by created_at, id`,
      [jobIds],
    );
    return rows as DueDelivery[];
  }

  /**
   * Gives each deferred delivery its new job and due time, without counting an attempt, only
   * while the job that came up is still its current one. Returns the deferrals it wrote.
   */
  static async deferUnscoped(tx: Db, deferrals: Deferral[]): Promise<Deferral[]> {
    if (deferrals.length === 0) return [];
    const { rows } = await tx.executeSql(
      `update tenant.webhook_deliveries d set job_id = s.next_job, next_attempt_at = s.at, updated_at = now()
         from unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::timestamptz[]) as s(id, job_id, next_job, at)
        where d.id = s.id and d.job_id = s.job_id and d.status = 'pending'
        returning d.id`,
      [deferrals.map((r) => r.id), deferrals.map((r) => r.job_id), deferrals.map((r) => r.next_job), deferrals.map((r) => r.at)],
    );
    const written = new Set((rows as { id: string }[]).map((r) => r.id));
    return deferrals.filter((r) => written.has(r.id));
  }

  /** Gives each pending delivery without a job a job id (skipping rows another process holds). */
  static async adoptUnqueuedUnscoped(tx: Db): Promise<AdoptedDelivery[]> {
    const { rows } = await tx.executeSql(
      `update tenant.webhook_deliveries set job_id = gen_random_uuid(), updated_at = now()
        where id in (select id from tenant.webhook_deliveries where status = 'pending' and job_id is null for update skip locked)
        returning id, job_id, tenant_id, next_attempt_at`,
    );
    return rows as AdoptedDelivery[];
  }

  /** Deletes delivered deliveries older than the retention window (their attempts go with them); returns how many. */
  static async pruneDeliveredUnscoped(db: Db, retentionDays: number): Promise<number> {
    const { rows } = await db.executeSql(
      `with gone as (delete from tenant.webhook_deliveries where status = 'delivered' and delivered_at < now() - make_interval(days => $1) returning 1)
       select count(*)::int as pruned from gone`,
      [retentionDays],
    );
    return (rows[0] as { pruned: number }).pruned;
  }

  /** The backlog, in one cheap statement over the pending rows (the `webhook_deliveries_due_idx` partial index's rows). */
  static async backlogUnscoped(pool: Pool): Promise<WebhookQueueStats> {
    const { rows } = await pool.query<{ pending: number; oldest: number; overdue: number }>(
      `select count(*)::int as pending,
              coalesce(extract(epoch from now() - min(created_at)), 0)::float8 as oldest,
              coalesce(extract(epoch from now() - min(next_attempt_at) filter (where next_attempt_at <= now())), 0)::float8 as overdue
         from tenant.webhook_deliveries where status = 'pending'`,
    );
    return { pending: rows[0].pending, oldestPendingSeconds: rows[0].oldest, overdueSeconds: rows[0].overdue };
  }
}
