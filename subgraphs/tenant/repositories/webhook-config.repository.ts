import type { EntityManager } from '@mikro-orm/postgresql';
import type { TenantScope } from '../../common/tenant-scope';
import { WebhookConfig } from '../entities/webhook-config.entity';

/** The scope's webhook configuration (at most one row per tenant). */
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

}
