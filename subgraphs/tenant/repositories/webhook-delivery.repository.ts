import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { enqueue } from '../../shared/jobs/job-queue';
import type { TenantScope } from '../../shared/tenant-scope';
import { WEBHOOK_DELIVERY_QUEUE } from '../webhooks/queues';

/** One delivery of the log, as reads return it. */
export interface DeliveryRecord {
  id: string;
  eventType: string;
  payload: string;
  status: 'pending' | 'delivered' | 'failed';
  attemptCount: number;
  nextAttemptAt: Date | null;
  lastStatus: number | null;
  lastError: string | null;
  deliveredAt: Date | null;
  createdAt: Date;
}

/** One recorded attempt. */
export interface AttemptRecord {
  deliveryId: string;
  attemptNumber: number;
  attemptedAt: Date;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
}

const DELIVERY_COLUMNS = `id, event_type as "eventType", payload, status, attempt_count as "attemptCount",
  case when status = 'pending' then next_attempt_at end as "nextAttemptAt", last_status as "lastStatus",
  last_error as "lastError", delivered_at as "deliveredAt", created_at as "createdAt"`;

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

  /** A page of the tenant's deliveries, newest first, and the total. */
  async page(filter: { eventType?: string | null; status?: string | null }, limit: number, offset: number): Promise<[DeliveryRecord[], number]> {
    const where = ['tenant_id = ?'];
    const params: unknown[] = [this.scope.tenantId];
    if (filter.eventType) (where.push('event_type = ?'), params.push(filter.eventType));
    if (filter.status) (where.push('status = ?'), params.push(filter.status));
    const connection = this.em.getConnection();
    const rows = await connection.execute<DeliveryRecord[]>(
      `select ${DELIVERY_COLUMNS}, count(*) over () as "total" from tenant.webhook_deliveries where ${where.join(' and ')} order by created_at desc, id desc limit ? offset ?`,
      [...params, limit, offset],
    );
    const total = rows.length > 0 ? Number((rows[0] as unknown as { total: string }).total) : Number((await connection.execute<{ n: string }[]>(`select count(*) as n from tenant.webhook_deliveries where ${where.join(' and ')}`, params))[0].n);
    return [rows.map(delivery), total];
  }

  /** One of the tenant's deliveries, or null (another tenant's reads as absent). */
  async find(id: string): Promise<DeliveryRecord | null> {
    const row = await this.em.getConnection().execute<DeliveryRecord>(`select ${DELIVERY_COLUMNS} from tenant.webhook_deliveries where tenant_id = ? and id = ?`, [this.scope.tenantId, id], 'get');
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
    // A new job: the one still queued for a retry (if any) is no longer the delivery's and does nothing.
    const jobId = randomUUID();
    const rows = await this.em.getConnection().execute<{ id: string }[]>(
      `update tenant.webhook_deliveries set status = 'pending', attempt_count = 0, next_attempt_at = now(), locked_until = null, job_id = ?, updated_at = now()
        where tenant_id = ? and id = ? and (locked_until is null or locked_until < now()) returning id`,
      [jobId, this.scope.tenantId, id],
      'all',
      this.em.getTransactionContext(),
    );
    if (rows.length > 0) {
      await enqueue(this.em, WEBHOOK_DELIVERY_QUEUE, [{ id: jobId, data: { deliveryId: id } }]);
      return 'queued';
    }
    return (await this.find(id)) ? 'busy' : 'missing';
  }

  /** Queues a `webhook.test` delivery straight into the log: it reports no change, so it needs no outbox. */
  async insertTest(data: Record<string, unknown>): Promise<string> {
    const id = randomUUID();
    const jobId = randomUUID();
    const payload = JSON.stringify({ type: 'webhook.test', timestamp: new Date().toISOString(), data });
    await this.em.getConnection().execute(
      `insert into tenant.webhook_deliveries (id, tenant_id, event_type, payload, status, next_attempt_at, job_id) values (?, ?, 'webhook.test', ?, 'pending', now(), ?)`,
      [id, this.scope.tenantId, payload, jobId],
      'run',
      this.em.getTransactionContext(),
    );
    await enqueue(this.em, WEBHOOK_DELIVERY_QUEUE, [{ id: jobId, data: { deliveryId: id } }]);
    return id;
  }
}
