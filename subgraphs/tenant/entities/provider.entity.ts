import { Collection, Entity, ManyToMany, Property } from '@mikro-orm/core';
import { TenantScopedEntity } from '../../common/base.entity';
import { Location } from './location.entity';

/** A clinician of the practice, working at one or more of its locations. */
@Entity({ tableName: 'providers' })
export class Provider extends TenantScopedEntity {
  @Property({ type: 'text', fieldName: 'first_name' })
  firstName!: string;

  @Property({ type: 'text', fieldName: 'last_name' })
  lastName!: string;

  /** Credentials as printed after the name, e.g. `PT, DPT`. */
  @Property({ type: 'text', nullable: true })
  title: string | null = null;

  @Property({ type: 'text', nullable: true })
  email: string | null = null;

  @Property({ type: 'text', nullable: true })
  phone: string | null = null;

  /** US National Provider Identifier: 10 digits with a Luhn check digit. */
  @Property({ type: 'text', nullable: true })
  npi: string | null = null;

  // Both ends are tenant-scoped rows and the service only links the tenant's own locations.
  @ManyToMany({ entity: () => Location, pivotTable: 'provider_locations', joinColumn: 'provider_id', inverseJoinColumn: 'location_id' })
  locations = new Collection<Location>(this);
}
