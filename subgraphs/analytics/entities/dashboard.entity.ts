import { Entity, Property } from '@mikro-orm/core';
import { TenantScopedEntity } from '../../common/base.entity';

/** A tenant's analytics dashboard: a named, laid-out set of widgets (contract part 4.2). */
@Entity({ tableName: 'dashboards' })
export class Dashboard extends TenantScopedEntity {
  @Property({ type: 'text' })
  name!: string;

  @Property({ type: 'text', nullable: true })
  description: string | null = null;

  // An opaque reference to the tenant subgraph's location: subgraphs never reach into each other's tables.
  @Property({ type: 'text', fieldName: 'location_id', nullable: true })
  locationId: string | null = null;

  /** Front-end grid layout, stored as sent (a JSON object or array). */
  @Property({ type: 'json' })
  layout: unknown = {};
}
