import { Entity, Property } from '@mikro-orm/core';
import { TenantScopedEntity } from '../../common/base.entity';

/** Kinds of payment method (contract part 2: `type`). */
export type PaymentMethodKind = 'CARD' | 'ACH' | 'WALLET_PAY';

/**
 * A patient's payment method, already tokenised by the processor: only its id and display
 * details are kept, never a full card or account number. Billing contact and metadata may hold
 * personal data, so they are hidden from serialisation and never logged.
 */
@Entity({ tableName: 'payment_methods' })
export class PaymentMethod extends TenantScopedEntity {
  @Property({ type: 'uuid', fieldName: 'patient_id' })
  patientId!: string;

  @Property({ type: 'text' })
  type!: PaymentMethodKind;

  @Property({ type: 'text', fieldName: 'processor_payment_method_id' })
  processorPaymentMethodId!: string;

  @Property({ type: 'text', fieldName: 'payment_method_config_id', nullable: true })
  paymentMethodConfigId: string | null = null;

  @Property({ type: 'text', nullable: true })
  fingerprint: string | null = null;

  @Property({ type: 'text', nullable: true })
  brand: string | null = null;

  @Property({ type: 'text', nullable: true })
  last4: string | null = null;

  @Property({ type: 'integer', fieldName: 'exp_month', nullable: true })
  expMonth: number | null = null;

  @Property({ type: 'integer', fieldName: 'exp_year', nullable: true })
  expYear: number | null = null;

  @Property({ type: 'text', fieldName: 'account_holder_type', nullable: true })
  accountHolderType: string | null = null;

  @Property({ type: 'text', fieldName: 'account_number_last4', nullable: true })
  accountNumberLast4: string | null = null;

  @Property({ type: 'text', fieldName: 'bank_name', nullable: true })
  bankName: string | null = null;

  @Property({ type: 'text', fieldName: 'routing_number', nullable: true })
  routingNumber: string | null = null;

  @Property({ type: 'text', fieldName: 'wallet_type', nullable: true })
  walletType: string | null = null;

  @Property({ type: 'text', nullable: true })
  description: string | null = null;

  @Property({ type: 'json', fieldName: 'billing_contact', nullable: true, hidden: true })
  billingContact: Record<string, string | null> | null = null;

  @Property({ type: 'json', nullable: true, hidden: true })
  metadata: Record<string, unknown> | null = null;

  @Property({ type: 'timestamptz', fieldName: 'processor_created_at', nullable: true })
  processorCreatedAt: Date | null = null;

  @Property({ type: 'timestamptz', fieldName: 'processor_updated_at', nullable: true })
  processorUpdatedAt: Date | null = null;

  @Property({ type: 'boolean', fieldName: 'is_default' })
  isDefault = false;

  @Property({ type: 'boolean', fieldName: 'is_archived' })
  isArchived = false;

  /** Registered by another tenant first (found by the migration that made tokens one tenant's): never charged until support resolves it. */
  @Property({ type: 'boolean', fieldName: 'processor_id_disputed' })
  processorIdDisputed = false;
}
