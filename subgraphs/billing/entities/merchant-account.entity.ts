import { DecimalType, Entity, Property } from '@mikro-orm/core';
import { TenantScopedEntity } from '../../common/base.entity';

/**
 * A merchant account at the payment processor (contract part 2). Processing fees are percent
 * (2.9 means 2.9 %), per-transaction fees integer cents; its locations live in
 * `merchant_account_locations` (MerchantAccountLocation), written with the account.
 */
@Entity({ tableName: 'merchant_accounts' })
export class MerchantAccount extends TenantScopedEntity {
  /** The processor's id of the account; the API's `id`. */
  @Property({ type: 'text', fieldName: 'processor_account_id' })
  processorAccountId!: string;

  @Property({ type: 'text' })
  name!: string;

  @Property({ type: 'boolean', fieldName: 'is_default' })
  isDefault = false;

  // numeric(7, 4) read as a number: the same double PostgreSQL's float8 cast of the value gives.
  @Property({ type: new DecimalType('number'), fieldName: 'card_processing_fee', precision: 7, scale: 4 })
  cardProcessingFee!: number;

  @Property({ type: 'integer', fieldName: 'per_transaction_fee_cents' })
  perTransactionFeeCents!: number;

  @Property({ type: new DecimalType('number'), fieldName: 'in_person_card_processing_fee', precision: 7, scale: 4 })
  inPersonCardProcessingFee!: number;

  @Property({ type: 'integer', fieldName: 'in_person_per_transaction_fee_cents' })
  inPersonPerTransactionFeeCents!: number;
}
