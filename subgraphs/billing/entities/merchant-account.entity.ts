import { Entity, Property } from '@mikro-orm/core';
import { TenantScopedEntity } from '../../common/base.entity';

/**
 * A merchant account at the payment processor (contract part 2). Processing fees are percent
 * (2.9 means 2.9 %), per-transaction fees integer cents; its locations live in
 * `merchant_account_locations`, written with the account.
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

  // numeric comes back as text from pg; the repository reads fees itself and converts.
  @Property({ type: 'decimal', fieldName: 'card_processing_fee', precision: 7, scale: 4 })
  cardProcessingFee!: string;

  @Property({ type: 'integer', fieldName: 'per_transaction_fee_cents' })
  perTransactionFeeCents!: number;

  @Property({ type: 'decimal', fieldName: 'in_person_card_processing_fee', precision: 7, scale: 4 })
  inPersonCardProcessingFee!: string;

  @Property({ type: 'integer', fieldName: 'in_person_per_transaction_fee_cents' })
  inPersonPerTransactionFeeCents!: number;
}
