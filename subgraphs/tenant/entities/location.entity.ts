import { Entity, Property } from '@mikro-orm/core';
import { TenantScopedEntity } from '../../common/base.entity';

/** A place where the practice sees patients, or a virtual one for telehealth (contract part 2, Location). */
@Entity({ tableName: 'locations' })
export class Location extends TenantScopedEntity {
  @Property({ type: 'text' })
  name!: string;

  @Property({ type: 'boolean', fieldName: 'is_virtual' })
  isVirtual = false;

  @Property({ type: 'text', fieldName: 'address_line_one', nullable: true })
  addressLineOne: string | null = null;

  @Property({ type: 'text', fieldName: 'address_line_two', nullable: true })
  addressLineTwo: string | null = null;

  @Property({ type: 'text', nullable: true })
  city: string | null = null;

  @Property({ type: 'text', nullable: true })
  state: string | null = null;

  @Property({ type: 'text', fieldName: 'zip_code', nullable: true })
  zipCode: string | null = null;

  @Property({ type: 'text', nullable: true })
  country: string | null = null;

  /** The location's id in a partner system (EHR, scheduling), as the partner spells it. */
  @Property({ type: 'text', fieldName: 'partner_location_id', nullable: true })
  partnerLocationId: string | null = null;
}
