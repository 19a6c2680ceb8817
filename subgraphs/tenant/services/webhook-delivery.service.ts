import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestAudit } from '../../../platform/audit/request-audit';
import type { TenantScope } from '../../../platform/tenant-scope';
import { ConflictError, NotFoundError } from '../../../schema/errors';
import { WebhookConfigRepository } from '../repositories/webhook-config.repository';
import { WebhookDeliveryRepository, type DeliveryRecord } from '../repositories/webhook-delivery.repository';

/** The changes a tenant makes to its webhook delivery log (issue 7): a redelivery and a test event, each with its audit record. */
export class WebhookDeliveryService {
  constructor(private readonly em: EntityManager, private readonly scope: TenantScope, private readonly audit: RequestAudit) {}

  /** Queues a delivery again from a fresh retry schedule; unknown is a 404, one being sent right now a 409. */
  async redeliver(id: string): Promise<DeliveryRecord> {
    const outcome = await this.em.transactional(async (tx) => {
      const requeued = await new WebhookDeliveryRepository(tx, this.scope).requeue(id);
      if (requeued === 'queued') await this.audit.change(tx, 'webhook_event.redeliver', 'webhook_event', [id.toLowerCase()]);
      return requeued;
    });
    if (outcome === 'missing') throw new NotFoundError('Webhook delivery not found');
    if (outcome === 'busy') throw new ConflictError('This delivery is being sent right now; retry in a few seconds');
    return (await new WebhookDeliveryRepository(this.em, this.scope).find(id))!;
  }

  /** Queues a `webhook.test` event to the configured endpoint; 409 when no enabled endpoint is configured. */
  async sendTest(): Promise<DeliveryRecord> {
    const config = await new WebhookConfigRepository(this.em, this.scope).find();
    if (!config?.url || !config.enabled) throw new ConflictError('No enabled webhook endpoint is configured');
    const id = await this.em.transactional(async (tx) => {
      const inserted = await new WebhookDeliveryRepository(tx, this.scope).insertTest({ message: 'This is a test event from the Healthcare Practice Platform.' });
      await this.audit.change(tx, 'webhook_event.send_test', 'webhook_event', [inserted]);
      return inserted;
    });
    return (await new WebhookDeliveryRepository(this.em, this.scope).find(id))!;
  }
}
