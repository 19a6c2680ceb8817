import { randomUUID } from 'node:crypto';
import { Filter, PrimaryKey, Property } from '@mikro-orm/core';

/** Condition of the default `tenant` filter: every row of tenant data belongs to one tenant. */
export const tenantFilterCondition = (args: { tenantId: string }) => ({ tenantId: args.tenantId });

/**
 * Base of every tenant-owned row: the `tenant` filter is on by default, so a query that forgets
 * the tenant fails loudly instead of leaking. Filters do not cover inserts: writes set tenantId.
 */
@Filter({ name: 'tenant', cond: tenantFilterCondition, default: true })
export abstract class TenantScopedEntity {
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @Property({ type: 'uuid', fieldName: 'tenant_id' })
  tenantId!: string;

  @Property({ type: 'timestamptz', fieldName: 'created_at' })
  createdAt: Date = new Date();

  @Property({ type: 'timestamptz', fieldName: 'updated_at', onUpdate: () => new Date() })
  updatedAt: Date = new Date();
}
