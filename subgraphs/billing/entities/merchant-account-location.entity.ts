import { Entity, PrimaryKey, Property } from '@mikro-orm/core';
import { TenantFilter } from '../../common/base.entity';

/** A location a merchant account serves (`merchant_account_locations`: a link row, written with its account). */
@Entity({ tableName: 'merchant_account_locations' })
@TenantFilter()
export class MerchantAccountLocation {
  @PrimaryKey({ type: 'uuid', fieldName: 'merchant_account_id' })
  merchantAccountId!: string;

  @PrimaryKey({ type: 'uuid', fieldName: 'location_id' })
  locationId!: string;

  @Property({ type: 'uuid', fieldName: 'tenant_id' })
  tenantId!: string;
}
