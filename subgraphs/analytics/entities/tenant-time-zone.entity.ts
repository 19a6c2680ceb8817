import { Entity, PrimaryKey, Property } from '@mikro-orm/core';
import { TenantFilter } from '../../common/base.entity';

/**
 * A tenant's time zone as the tenant subgraph publishes it (`tenant.time_zone_directory`), never
 * its table: a readonly entity (the ORM writes none) under the tenant guard.
 */
@Entity({ schema: 'tenant', tableName: 'time_zone_directory', readonly: true })
@TenantFilter()
export class TenantTimeZone {
  @PrimaryKey({ type: 'uuid' })
  id!: string;

  @Property({ type: 'uuid', fieldName: 'tenant_id' })
  tenantId!: string;

  @Property({ type: 'text' })
  timezone!: string;
}
