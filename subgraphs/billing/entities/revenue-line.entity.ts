import { Entity, Property } from '@mikro-orm/core';
import { TenantScopedEntity } from '../../common/base.entity';

/**
 * What a charge item and a sold package share: a sale at a location, with the location, provider
 * and patient names snapshotted from the directory at sale time, so later renames do not rewrite
 * revenue history. Amounts are integer cents; net = gross - discount.
 */
abstract class RevenueLineEntity extends TenantScopedEntity {
  @Property({ type: 'uuid', fieldName: 'location_id' })
  locationId!: string;

  @Property({ type: 'text', fieldName: 'location_name' })
  locationName!: string;

  @Property({ type: 'uuid', fieldName: 'provider_id', nullable: true })
  providerId: string | null = null;

  @Property({ type: 'text', fieldName: 'provider_name', nullable: true })
  providerName: string | null = null;

  @Property({ type: 'uuid', fieldName: 'patient_id', nullable: true })
  patientId: string | null = null;

  @Property({ type: 'text', fieldName: 'patient_name', nullable: true, hidden: true })
  patientName: string | null = null;

  @Property({ type: 'text', fieldName: 'item_category' })
  itemCategory!: string;

  @Property({ type: 'text', fieldName: 'item_type' })
  itemType!: string;

  @Property({ type: 'text', fieldName: 'item_name' })
  itemName!: string;

  @Property({ type: 'text', fieldName: 'payment_medium' })
  paymentMedium!: string;

  @Property({ type: 'integer', fieldName: 'gross_cents' })
  grossCents!: number;

  @Property({ type: 'integer', fieldName: 'discount_cents' })
  discountCents = 0;

  @Property({ type: 'integer', fieldName: 'net_cents' })
  netCents!: number;

  @Property({ type: 'text', nullable: true })
  comment: string | null = null;
}

/** A product or service sale (issue 4: revenue lines). */
@Entity({ tableName: 'charge_items' })
export class ChargeItem extends RevenueLineEntity {}

/** A sold package of sessions. */
@Entity({ tableName: 'sold_packages' })
export class SoldPackage extends RevenueLineEntity {
  @Property({ type: 'integer', fieldName: 'session_count', nullable: true })
  sessionCount: number | null = null;
}
