import { Entity, Property } from '@mikro-orm/core';
import { TenantScopedEntity } from '../../common/base.entity';

/** Outcome of a charge at the processor; PENDING until its answer is recorded. */
export type PaymentStatus = 'PENDING' | 'SUCCEEDED' | 'FAILED';

/** One manual payment attempt for a member (contract part 4.7); declined attempts are kept too. */
@Entity({ tableName: 'member_payments' })
export class MemberPayment extends TenantScopedEntity {
  @Property({ type: 'uuid', fieldName: 'member_id' })
  memberId!: string;

  @Property({ type: 'uuid', fieldName: 'payment_method_id' })
  paymentMethodId!: string;

  @Property({ type: 'integer', fieldName: 'amount_cents' })
  amountCents!: number;

  @Property({ type: 'text' })
  status!: PaymentStatus;

  /** The processor's decline code, e.g. `card_declined`. */
  @Property({ type: 'text', fieldName: 'failure_reason', nullable: true })
  failureReason: string | null = null;

  @Property({ type: 'text', fieldName: 'processor_payment_id', nullable: true })
  processorPaymentId: string | null = null;

  /** The caller's Idempotency-Key, if it sent one: a retry with it answers this attempt. A client's secret, so hidden. */
  @Property({ type: 'text', fieldName: 'request_key', nullable: true, hidden: true })
  requestKey: string | null = null;

  @Property({ type: 'text', nullable: true })
  comment: string | null = null;
}
