import { randomUUID } from 'node:crypto';
import { Filter, PrimaryKey, Property } from '@mikro-orm/core';

/** Condition of the default `tenant` filter: every row of tenant data belongs to one tenant. */
export const tenantFilterCondition = (args: { tenantId: string }) => ({ tenantId: args.tenantId });

/**
 * The tenant guard on an entity: MikroORM's `tenant` filter, on by default, whose parameter
 * `TenantScope.guard` sets on an entity manager. Every find, count, update and delete of the
 * entity is then limited to that tenant, and one that forgot the tenant throws instead of reading
 * every tenant's rows. Filters do not cover inserts: writes set `tenantId` themselves. On every
 * tenant-owned entity (TenantScopedEntity carries it; a table or view of another shape, such as a
 * link table or another subgraph's published view, takes it directly).
 */
export const TenantFilter = () => Filter({ name: 'tenant', cond: tenantFilterCondition, default: true });

/** Base of every tenant-owned row: id, tenant and timestamps, under the tenant guard (`TenantFilter`). */
@TenantFilter()
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
