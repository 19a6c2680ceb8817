import type { EntityManager } from '@mikro-orm/postgresql';
import { storedId } from '../../../platform/ids';
import type { TenantScope } from '../../../platform/tenant-scope';
import type { ChargeResult } from '../processor/payment-processor';
import { MemberPayment, type PaymentStatus } from '../entities/member-payment.entity';

/** A manual payment as the service reads and answers it. */
export interface MemberPaymentRow {
  id: string;
  memberId: string;
  paymentMethodId: string;
  amountCents: number;
  status: PaymentStatus;
  failureReason: string | null;
  comment: string | null;
  createdAt: Date;
}

const toRow = ({ id, memberId, paymentMethodId, amountCents, status, failureReason, comment, createdAt }: MemberPayment): MemberPaymentRow => ({
  id,
  memberId,
  paymentMethodId,
  amountCents,
  status,
  failureReason,
  comment,
  createdAt,
});

/** Manual payments, through the ORM under the tenant guard; inside a transaction on its connection. */
export class MemberPaymentRepository {
  constructor(private readonly em: EntityManager, private readonly scope: TenantScope) {}

  /** Writes an attempt as PENDING; the caller commits it before the processor is called. */
  async insertPending(payment: Pick<MemberPaymentRow, 'id' | 'memberId' | 'paymentMethodId' | 'amountCents' | 'comment'> & { requestKey: string | null }): Promise<MemberPaymentRow> {
    const row = this.em.create(MemberPayment, { ...payment, tenantId: this.scope.tenantId, status: 'PENDING' } as never);
    await this.em.flush();
    return toRow(row);
  }

  /** One payment of the tenant, or null. */
  async findById(id: string): Promise<MemberPaymentRow | null> {
    const key = storedId(id);
    const row = key ? await this.em.findOne(MemberPayment, { id: key, tenantId: this.scope.tenantId }) : null;
    return row ? toRow(row) : null;
  }

  /** The tenant's attempt made under the caller's Idempotency-Key `requestKey`, or null. */
  async findByRequestKey(requestKey: string): Promise<MemberPaymentRow | null> {
    const row = await this.em.findOne(MemberPayment, { tenantId: this.scope.tenantId, requestKey });
    return row ? toRow(row) : null;
  }

  /** The member's attempt whose answer was never recorded. Under the member's lock nobody else can be sending it. */
  async findPending(memberId: string): Promise<MemberPaymentRow | null> {
    const row = await this.em.findOne(MemberPayment, { tenantId: this.scope.tenantId, memberId, status: 'PENDING' });
    return row ? toRow(row) : null;
  }

  /** Records the processor's answer on a pending attempt (one already settled is left as it is). */
  async settle(id: string, outcome: ChargeResult): Promise<void> {
    const row = await this.em.findOne(MemberPayment, { id, tenantId: this.scope.tenantId, status: 'PENDING' });
    if (!row) return;
    row.status = outcome.status;
    row.failureReason = outcome.failureReason;
    row.processorPaymentId = outcome.processorPaymentId;
    await this.em.flush();
  }
}
